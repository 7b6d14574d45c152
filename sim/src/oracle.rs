//! Scenario scripts shared with the real-MPI oracle (see `sim/oracle/`).
