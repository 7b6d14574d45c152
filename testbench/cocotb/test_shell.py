"""cocotb tests of tagmatch's IP shells (`tagmatch gen --shell xilinx|intel`).

The commands and the responses the models expect come from the vectors file that
`tagmatch gen --testbench --testbench-vectors` writes (tagmatch_engine_vectors.jsonl; the
schema is in gen/src/emit/vectors.rs). Commands go in through cocotbext-axi's
AxiStreamSource with random gaps, responses come out through its AxiStreamSink with random
backpressure. Responses are compared with the vectors in order, never by cycle: every bit
the mask marks must be as expected, the id included. The cycle of each response is only
written out (TEST.cycles), for scripts/cocotb.sh to compare Icarus's with Verilator's.

The Avalon-ST shell uses the same source and sink under Avalon-ST's signal names
(`data`, `valid`, `ready`). The shell declares ready latency 0 (`tagmatch_shell_hw.tcl`,
readyLatency 0): a word moves in a cycle where valid and ready are both high, which is
AXI4-Stream's handshake, so the AXI4-Stream models drive it exactly.

Settings come from the environment (testbench/cocotb/Makefile sets them):
  SHELL_KIND              xilinx or intel
  TAGMATCH_GEN            the folder `tagmatch gen` wrote (shell, engine, manifest, vectors)
  TAGMATCH_RESET_VECTORS  a second vectors file (another seed): the stream after the reset
  TAGMATCH_PAUSE_SEED     seed of the random gaps and backpressure (default 1)
  TAGMATCH_OPS            operations of the long stream to run, from its start (default all)
"""

import json
import logging
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotb.result import SimTimeoutError
from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource

# Cycles a response may take before the test calls the shell stuck.
RESPONSE_CYCLES = 5000
# Clock period in ns.
PERIOD = 10
# Differences printed before the rest are only counted.
SHOWN = 10


def setting(name, default=None):
    value = os.environ.get(name) or default
    if value is None:
        raise RuntimeError(
            f"{name} is not set: run the tests with scripts/cocotb.sh or testbench/cocotb/Makefile"
        )
    return value


class AvalonStBus(AxiStreamBus):
    """An Avalon-ST interface (`<prefix>_data`, `_valid`, `_ready`) under the names the
    AXI4-Stream models use."""

    _signals = {"tdata": "data"}
    _optional_signals = {"tvalid": "valid", "tready": "ready"}


class Layout:
    """The response word's fields, from the manifest's testbench.vectors entry."""

    def __init__(self, gen_dir):
        with open(os.path.join(gen_dir, "manifest.json")) as f:
            entry = json.load(f)["testbench"]["vectors"]
        self.width = entry["width"]
        self.response = [(p["name"], p["lo"], p["width"]) for p in entry["response_fields"]]

    def fields(self, word):
        return {n: (word >> lo) & ((1 << w) - 1) for n, lo, w in self.response}


def load(path):
    """A vectors file: one dict a line, the words as integers."""
    vectors = []
    with open(path) as f:
        for line in f:
            v = json.loads(line)
            for key in ("command_word", "response_word", "response_mask"):
                v[key] = int(v[key], 16)
            vectors.append(v)
    if not vectors:
        raise RuntimeError(f"{path} holds no operations")
    return vectors


def pauses(rng, percent, longest, stall_percent=0, stall=0):
    """Per cycle, whether to pause: with `percent` chance a pause of 1 to `longest` cycles,
    with `stall_percent` chance (in tenths of a percent) a stall of `stall` cycles."""
    while True:
        if stall and rng.randrange(1000) < stall_percent:
            yield from [True] * stall
        elif rng.randrange(100) < percent:
            yield from [True] * rng.randint(1, longest)
        else:
            yield False


def high(signal):
    return bool(signal.value)


class Bench:
    """The shell with a clock, the AXI4-Stream source and sink, and handshake counters."""

    def __init__(self, dut, seed):
        self.dut = dut
        self.kind = setting("SHELL_KIND")
        self.layout = Layout(setting("TAGMATCH_GEN"))
        # One generator for each stream's pauses and one for the test's choices: a shared
        # one would be drawn from in the order the simulator wakes the coroutines.
        self.rng = random.Random(seed)
        gaps, backpressure = random.Random(seed * 2 + 1), random.Random(seed * 2 + 2)
        if self.kind == "xilinx":
            self.clock, self.reset, self.active = dut.aclk, dut.aresetn, 0
            cmd = AxiStreamBus.from_prefix(dut, "s_axis_cmd")
            resp = AxiStreamBus.from_prefix(dut, "m_axis_resp")
        elif self.kind == "intel":
            self.clock, self.reset, self.active = dut.clk, dut.reset, 1
            cmd = AvalonStBus.from_prefix(dut, "asi_cmd")
            resp = AvalonStBus.from_prefix(dut, "aso_resp")
        else:
            raise RuntimeError(f"SHELL_KIND {self.kind}: xilinx or intel")
        if len(cmd.tdata) != self.layout.width or len(resp.tdata) != self.layout.width:
            raise RuntimeError(
                f"the shell's words are {len(cmd.tdata)} bits, the vectors' {self.layout.width}"
            )
        self.cmd, self.resp = cmd, resp
        self.reset.setimmediatevalue(1 - self.active)
        cocotb.start_soon(Clock(self.clock, PERIOD, units="ns").start())
        level = bool(self.active)
        self.source = AxiStreamSource(cmd, self.clock, self.reset, reset_active_level=level)
        self.sink = AxiStreamSink(resp, self.clock, self.reset, reset_active_level=level)
        for model in (self.source, self.sink):
            model.log.setLevel(logging.WARNING)
        # Gaps between commands; backpressure on responses, with long stalls that fill the
        # shell's skid buffers and the engine's response register.
        self.source.set_pause_generator(pauses(gaps, 25, 4))
        self.sink.set_pause_generator(pauses(backpressure, 40, 6, stall_percent=5, stall=40))
        self.taken = 0
        self.given = 0
        self.cycles = 0
        # The unknown (X or Z) bits of each response word the host took, by its number,
        # where it had any; and the vector of each response compared, in order.
        self.unknown = {}
        self.compared = []
        # The cycle of each response the host took: the same in every simulator.
        self.response_cycles = []
        cocotb.start_soon(self._count())

    async def _count(self):
        """Command words the shell took and response words the host took, and the unknown
        bits of each response (the sink reads them as 0: COCOTB_RESOLVE_X=ZEROS)."""
        while True:
            await RisingEdge(self.clock)
            self.cycles += 1
            if high(self.cmd.tvalid) and high(self.cmd.tready):
                self.taken += 1
            if high(self.resp.tvalid) and high(self.resp.tready):
                value = self.resp.tdata.value
                if not value.is_resolvable:
                    bits = "".join("0" if b in "01" else "1" for b in value.binstr)
                    self.unknown[self.given] = int(bits, 2)
                self.given += 1
                self.response_cycles.append(self.cycles)

    async def hold_reset(self, cycles):
        """Reset for `cycles` cycles (3 or more). The shell registers the reset, and its
        skid buffers' ready and valid registers are cleared at the next edge: from the
        third cycle of reset on, the shell takes and gives nothing."""
        self.reset.value = self.active
        for cycle in range(cycles):
            # Read after the edge: the values the edge sampled, those of the cycle before.
            await RisingEdge(self.clock)
            if cycle >= 2:
                assert not high(self.cmd.tready), f"{self.kind}: command ready in reset cycle {cycle + 1}"
                assert not high(self.resp.tvalid), f"{self.kind}: response valid in reset cycle {cycle + 1}"
        self.reset.value = 1 - self.active
        await RisingEdge(self.clock)

    def send(self, vectors):
        nbytes = self.layout.width // 8
        for v in vectors:
            self.source.send_nowait(v["command_word"].to_bytes(nbytes, "little"))

    async def response(self, what):
        """The next response word; fails after RESPONSE_CYCLES cycles without one."""
        try:
            frame = await with_timeout(self.sink.recv(), RESPONSE_CYCLES * PERIOD, "ns")
        except SimTimeoutError:
            raise AssertionError(
                f"{self.kind}: no response to {what} within {RESPONSE_CYCLES} cycles "
                f"({self.taken} commands taken, {self.given} responses given)"
            ) from None
        return int.from_bytes(bytes(frame.tdata), "little")

    def compare(self, v, word, errors):
        """Whether `word` answers vector `v`; a difference is logged and counted."""
        self.compared.append(v)
        if word & v["response_mask"] != v["response_word"]:
            self.differs(v, word, errors)

    def check_unknown(self, errors):
        """No bit the mask compares was unknown (Icarus: X or Z). Run when every response
        compared has been counted."""
        for number, v in enumerate(self.compared):
            if self.unknown.get(number, 0) & v["response_mask"]:
                self.differs(v, None, errors)

    def differs(self, v, word, errors):
        errors.append(v["index"])
        if len(errors) > SHOWN:
            return
        if word is None:
            got = "unknown (X) bits where the mask compares"
        else:
            fields = self.layout.fields(word)
            want = {k: x for k, x in v["response"].items() if x is not None}
            diff = ", ".join(f"{k} {fields[k]} (expected {x})" for k, x in want.items() if fields[k] != x)
            got = f"{diff or 'nonzero unused bits'} [word {word:0{self.layout.width // 4}x}]"
        self.dut._log.error("operation %d (%s): expected %s; got %s", v["index"], v["op"], v["expect"], got)

    async def expect(self, vectors, errors):
        """Receives one response per vector, in order, and compares each."""
        for v in vectors:
            self.compare(v, await self.response(f"operation {v['index']} ({v['op']})"), errors)

    async def nothing_more(self, errors, test):
        """No response is left: the host takes every cycle for a while and gets nothing.
        Then the unknown bits of every response are checked, and the cycle of each
        response is written to TEST.cycles (scripts/cocotb.sh compares the simulators')."""
        self.sink.clear_pause_generator()
        self.sink.pause = False
        await ClockCycles(self.clock, 64)
        assert self.sink.empty(), f"{self.kind}: {self.sink.count()} responses more than commands"
        self.check_unknown(errors)
        with open(f"{test}.cycles", "w") as f:
            f.writelines(f"{c}\n" for c in self.response_cycles)


def summary(dut, bench, name, errors, count):
    if errors:
        raise AssertionError(
            f"{bench.kind}: {name}: {len(errors)} of {count} responses differ "
            f"(first at operations {errors[:SHOWN]})"
        )
    dut._log.info("%s: %s: %d responses in order, as expected", bench.kind, name, count)


@cocotb.test()
async def random_stream_in_order(dut):
    """The whole vectors file through the shell: every response as expected, in order."""
    bench = Bench(dut, int(setting("TAGMATCH_PAUSE_SEED", "1")))
    await bench.hold_reset(4)
    vectors = load(os.path.join(setting("TAGMATCH_GEN"), "tagmatch_engine_vectors.jsonl"))
    # A prefix of the stream is a stream: its expected responses are the whole one's first.
    ops = os.environ.get("TAGMATCH_OPS")
    if ops:
        vectors = vectors[: int(ops)]
    bench.send(vectors)
    errors = []
    start = bench.cycles
    await bench.expect(vectors, errors)
    await bench.nothing_more(errors, "random_stream_in_order")
    assert bench.taken == len(vectors), f"{bench.taken} commands taken of {len(vectors)}"
    dut._log.info("%s: %d cycles for %d operations", bench.kind, bench.cycles - start, len(vectors))
    summary(dut, bench, "random stream", errors, len(vectors))


@cocotb.test()
async def reset_mid_stream(dut):
    """Reset with commands in flight, then a second stream from an empty engine."""
    bench = Bench(dut, int(setting("TAGMATCH_PAUSE_SEED", "1")) + 1000)
    await bench.hold_reset(4)
    first = load(os.path.join(setting("TAGMATCH_GEN"), "tagmatch_engine_vectors.jsonl"))
    second = load(setting("TAGMATCH_RESET_VECTORS"))
    first = first[:1000]
    bench.send(first)
    errors = []
    # The first stream, checked up to a random point.
    stop = bench.rng.randint(len(first) // 5, len(first) * 2 // 3)
    await bench.expect(first[:stop], errors)
    for _ in range(RESPONSE_CYCLES):
        if bench.taken > bench.given + 1:
            break
        await RisingEdge(bench.clock)
    # Reset now: the host drops the commands it has not sent, and holds valid and ready
    # low until the reset ends.
    cycles = bench.rng.randint(3, 8)
    bench.source.clear()
    await bench.hold_reset(cycles)
    in_flight = bench.taken - bench.given
    assert in_flight > 0, f"{bench.kind}: no command in flight at the reset"
    # What the host took of the first stream before the reset must still be right.
    done = stop
    while not bench.sink.empty():
        bench.compare(first[done], await bench.response("the first stream"), errors)
        done += 1
    dut._log.info(
        "%s: reset for %d cycles after %d of %d responses, %d commands taken and unanswered",
        bench.kind,
        cycles,
        done,
        len(first),
        in_flight,
    )
    summary(dut, bench, "stream before the reset", errors, done)
    # The second stream, from an empty engine: every response exactly as expected.
    bench.send(second)
    await bench.expect(second, errors)
    await bench.nothing_more(errors, "reset_mid_stream")
    summary(dut, bench, "stream after the reset", errors, len(second))
