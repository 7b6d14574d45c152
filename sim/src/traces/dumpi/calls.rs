//! The DUMPI call table: for every call label, the MPI name and the layout of its
//! arguments in a binary trace.
//!
//! Records carry no length, so every call present in a file must be decodable to reach
//! the next one. Layouts use one letter per stored field (all big-endian):
//!
//! | letter | stored as |
//! |---|---|
//! | `b` | u8 (ops, thread levels, orderings, ...) |
//! | `h` | i16 (communicators, datatypes, groups, files, windows, infos, ...) |
//! | `i` | i32 (counts, ranks, tags, requests, flags, ...) |
//! | `l` | i64 |
//! | `I` | u32 length, then that many i32 (int, request and error-code arrays) |
//! | `H` | u32 length, then that many i16 (datatype and info arrays) |
//! | `B` | u32 length, then that many u8 |
//! | `J` | u32 rows, then per row a u32 length and that many i32 |
//! | `s` | u32 length, then that many bytes (a string) |
//! | `T` | u32 count, then that many strings |
//! | `U` | u32 count, then that many `T` |
//! | `S` | statuses, present only when the record's mask says statuses were stored |
//! | `n` | `MPI_Init` arguments: u32 argc (stored twice before DUMPI 0.6.2), argc strings |
//! | `x` | `I` from DUMPI 0.6.9 on, a single i32 before (a writer bug in `MPI_Type_struct`) |
//! | `y` | `I` from DUMPI 0.6.8 on, a single i32 before (`MPI_Cart_get`) |
//!
//! A `?` before a letter makes that field present only on the root of a rooted
//! collective: `root_check` names the argument positions of the caller's rank and the root.
//! `MPI_Pcontrol` has no layout: the DUMPI library turns it into annotations and has no
//! reader for a stored record, so the reader reports such a record by name.

/// Argument layout of one call label.
#[derive(Clone, Copy, Debug)]
pub struct CallLayout {
    pub name: &'static str,
    pub fields: Option<&'static str>,
    /// (argument index of the caller's rank, argument index of the root)
    pub root_check: Option<(usize, usize)>,
}

/// Label of the first label past the real calls (the footer has one count per label up to
/// and including it).
pub const ALL_FUNCTIONS: u16 = 290;
pub const FUNCTION_ENTER: u16 = 291;
pub const FUNCTION_EXIT: u16 = 292;
pub const END_OF_STREAM: u16 = 293;

/// The layout of `label`, if it is a known label.
pub fn layout(label: u16) -> Option<&'static CallLayout> {
    CALLS.get(label as usize)
}

/// The label of an MPI call by name (`MPI_Irecv`), for the text form.
pub fn label_of(name: &str) -> Option<u16> {
    CALLS.iter().position(|c| c.name == name).map(|i| i as u16)
}

pub static CALLS: [CallLayout; 293] = [
    CallLayout { name: "MPI_Send", fields: Some("ihiih"), root_check: None }, // 0
    CallLayout { name: "MPI_Recv", fields: Some("ihiihS"), root_check: None }, // 1
    CallLayout { name: "MPI_Get_count", fields: Some("Shi"), root_check: None }, // 2
    CallLayout { name: "MPI_Bsend", fields: Some("ihiih"), root_check: None }, // 3
    CallLayout { name: "MPI_Ssend", fields: Some("ihiih"), root_check: None }, // 4
    CallLayout { name: "MPI_Rsend", fields: Some("ihiih"), root_check: None }, // 5
    CallLayout { name: "MPI_Buffer_attach", fields: Some("i"), root_check: None }, // 6
    CallLayout { name: "MPI_Buffer_detach", fields: Some("i"), root_check: None }, // 7
    CallLayout { name: "MPI_Isend", fields: Some("ihiihi"), root_check: None }, // 8
    CallLayout { name: "MPI_Ibsend", fields: Some("ihiihi"), root_check: None }, // 9
    CallLayout { name: "MPI_Issend", fields: Some("ihiihi"), root_check: None }, // 10
    CallLayout { name: "MPI_Irsend", fields: Some("ihiihi"), root_check: None }, // 11
    CallLayout { name: "MPI_Irecv", fields: Some("ihiihi"), root_check: None }, // 12
    CallLayout { name: "MPI_Wait", fields: Some("iS"), root_check: None },    // 13
    CallLayout { name: "MPI_Test", fields: Some("iiS"), root_check: None },   // 14
    CallLayout { name: "MPI_Request_free", fields: Some("i"), root_check: None }, // 15
    CallLayout { name: "MPI_Waitany", fields: Some("iIiS"), root_check: None }, // 16
    CallLayout { name: "MPI_Testany", fields: Some("iIiiS"), root_check: None }, // 17
    CallLayout { name: "MPI_Waitall", fields: Some("iIS"), root_check: None }, // 18
    CallLayout { name: "MPI_Testall", fields: Some("iIiS"), root_check: None }, // 19
    CallLayout { name: "MPI_Waitsome", fields: Some("iIiIS"), root_check: None }, // 20
    CallLayout { name: "MPI_Testsome", fields: Some("iIiIS"), root_check: None }, // 21
    CallLayout { name: "MPI_Iprobe", fields: Some("iihiS"), root_check: None }, // 22
    CallLayout { name: "MPI_Probe", fields: Some("iihS"), root_check: None }, // 23
    CallLayout { name: "MPI_Cancel", fields: Some("i"), root_check: None },   // 24
    CallLayout { name: "MPI_Test_cancelled", fields: Some("Si"), root_check: None }, // 25
    CallLayout { name: "MPI_Send_init", fields: Some("ihiihi"), root_check: None }, // 26
    CallLayout { name: "MPI_Bsend_init", fields: Some("ihiihi"), root_check: None }, // 27
    CallLayout { name: "MPI_Ssend_init", fields: Some("ihiihi"), root_check: None }, // 28
    CallLayout { name: "MPI_Rsend_init", fields: Some("ihiihi"), root_check: None }, // 29
    CallLayout { name: "MPI_Recv_init", fields: Some("ihiihi"), root_check: None }, // 30
    CallLayout { name: "MPI_Start", fields: Some("i"), root_check: None },    // 31
    CallLayout { name: "MPI_Startall", fields: Some("iI"), root_check: None }, // 32
    CallLayout { name: "MPI_Sendrecv", fields: Some("ihiiihiihS"), root_check: None }, // 33
    CallLayout { name: "MPI_Sendrecv_replace", fields: Some("ihiiiihS"), root_check: None }, // 34
    CallLayout { name: "MPI_Type_contiguous", fields: Some("ihh"), root_check: None }, // 35
    CallLayout { name: "MPI_Type_vector", fields: Some("iiihh"), root_check: None }, // 36
    CallLayout { name: "MPI_Type_hvector", fields: Some("iiihh"), root_check: None }, // 37
    CallLayout { name: "MPI_Type_indexed", fields: Some("iIIhh"), root_check: None }, // 38
    CallLayout { name: "MPI_Type_hindexed", fields: Some("iIIhh"), root_check: None }, // 39
    CallLayout { name: "MPI_Type_struct", fields: Some("iIxHh"), root_check: None }, // 40
    CallLayout { name: "MPI_Address", fields: Some("i"), root_check: None },  // 41
    CallLayout { name: "MPI_Type_extent", fields: Some("hi"), root_check: None }, // 42
    CallLayout { name: "MPI_Type_size", fields: Some("hi"), root_check: None }, // 43
    CallLayout { name: "MPI_Type_lb", fields: Some("hi"), root_check: None }, // 44
    CallLayout { name: "MPI_Type_ub", fields: Some("hi"), root_check: None }, // 45
    CallLayout { name: "MPI_Type_commit", fields: Some("h"), root_check: None }, // 46
    CallLayout { name: "MPI_Type_free", fields: Some("h"), root_check: None }, // 47
    CallLayout { name: "MPI_Get_elements", fields: Some("Shi"), root_check: None }, // 48
    CallLayout { name: "MPI_Pack", fields: Some("ihiiih"), root_check: None }, // 49
    CallLayout { name: "MPI_Unpack", fields: Some("iiiihh"), root_check: None }, // 50
    CallLayout { name: "MPI_Pack_size", fields: Some("ihhi"), root_check: None }, // 51
    CallLayout { name: "MPI_Barrier", fields: Some("h"), root_check: None },  // 52
    CallLayout { name: "MPI_Bcast", fields: Some("ihih"), root_check: None }, // 53
    CallLayout { name: "MPI_Gather", fields: Some("iihih?i?h"), root_check: Some((0, 3)) }, // 54
    CallLayout { name: "MPI_Gatherv", fields: Some("iiihih?I?Ih"), root_check: Some((0, 4)) }, // 55
    CallLayout { name: "MPI_Scatter", fields: Some("iihih?i?h"), root_check: Some((0, 3)) }, // 56
    CallLayout { name: "MPI_Scatterv", fields: Some("iihihih?I?I"), root_check: Some((0, 5)) }, // 57
    CallLayout { name: "MPI_Allgather", fields: Some("ihihh"), root_check: None }, // 58
    CallLayout { name: "MPI_Allgatherv", fields: Some("iihIIhh"), root_check: None }, // 59
    CallLayout { name: "MPI_Alltoall", fields: Some("ihihh"), root_check: None }, // 60
    CallLayout { name: "MPI_Alltoallv", fields: Some("iIIhIIhh"), root_check: None }, // 61
    CallLayout { name: "MPI_Reduce", fields: Some("ihbih"), root_check: None }, // 62
    CallLayout { name: "MPI_Op_create", fields: Some("ib"), root_check: None }, // 63
    CallLayout { name: "MPI_Op_free", fields: Some("b"), root_check: None },  // 64
    CallLayout { name: "MPI_Allreduce", fields: Some("ihbh"), root_check: None }, // 65
    CallLayout { name: "MPI_Reduce_scatter", fields: Some("iIhbh"), root_check: None }, // 66
    CallLayout { name: "MPI_Scan", fields: Some("ihbh"), root_check: None },  // 67
    CallLayout { name: "MPI_Group_size", fields: Some("hi"), root_check: None }, // 68
    CallLayout { name: "MPI_Group_rank", fields: Some("hi"), root_check: None }, // 69
    CallLayout { name: "MPI_Group_translate_ranks", fields: Some("hiIhI"), root_check: None }, // 70
    CallLayout { name: "MPI_Group_compare", fields: Some("hhb"), root_check: None }, // 71
    CallLayout { name: "MPI_Comm_group", fields: Some("hh"), root_check: None }, // 72
    CallLayout { name: "MPI_Group_union", fields: Some("hhh"), root_check: None }, // 73
    CallLayout { name: "MPI_Group_intersection", fields: Some("hhh"), root_check: None }, // 74
    CallLayout { name: "MPI_Group_difference", fields: Some("hhh"), root_check: None }, // 75
    CallLayout { name: "MPI_Group_incl", fields: Some("hiIh"), root_check: None }, // 76
    CallLayout { name: "MPI_Group_excl", fields: Some("hiIh"), root_check: None }, // 77
    CallLayout { name: "MPI_Group_range_incl", fields: Some("hiJh"), root_check: None }, // 78
    CallLayout { name: "MPI_Group_range_excl", fields: Some("hiJh"), root_check: None }, // 79
    CallLayout { name: "MPI_Group_free", fields: Some("h"), root_check: None }, // 80
    CallLayout { name: "MPI_Comm_size", fields: Some("hi"), root_check: None }, // 81
    CallLayout { name: "MPI_Comm_rank", fields: Some("hi"), root_check: None }, // 82
    CallLayout { name: "MPI_Comm_compare", fields: Some("hhb"), root_check: None }, // 83
    CallLayout { name: "MPI_Comm_dup", fields: Some("hh"), root_check: None }, // 84
    CallLayout { name: "MPI_Comm_create", fields: Some("hhh"), root_check: None }, // 85
    CallLayout { name: "MPI_Comm_split", fields: Some("hiih"), root_check: None }, // 86
    CallLayout { name: "MPI_Comm_free", fields: Some("h"), root_check: None }, // 87
    CallLayout { name: "MPI_Comm_test_inter", fields: Some("hi"), root_check: None }, // 88
    CallLayout { name: "MPI_Comm_remote_size", fields: Some("hi"), root_check: None }, // 89
    CallLayout { name: "MPI_Comm_remote_group", fields: Some("hh"), root_check: None }, // 90
    CallLayout { name: "MPI_Intercomm_create", fields: Some("hihiih"), root_check: None }, // 91
    CallLayout { name: "MPI_Intercomm_merge", fields: Some("hih"), root_check: None }, // 92
    CallLayout { name: "MPI_Keyval_create", fields: Some("h"), root_check: None }, // 93
    CallLayout { name: "MPI_Keyval_free", fields: Some("h"), root_check: None }, // 94
    CallLayout { name: "MPI_Attr_put", fields: Some("hi"), root_check: None }, // 95
    CallLayout { name: "MPI_Attr_get", fields: Some("hii"), root_check: None }, // 96
    CallLayout { name: "MPI_Attr_delete", fields: Some("hi"), root_check: None }, // 97
    CallLayout { name: "MPI_Topo_test", fields: Some("hb"), root_check: None }, // 98
    CallLayout { name: "MPI_Cart_create", fields: Some("hiIIih"), root_check: None }, // 99
    CallLayout { name: "MPI_Dims_create", fields: Some("iiII"), root_check: None }, // 100
    CallLayout { name: "MPI_Graph_create", fields: Some("ihiIIih"), root_check: None }, // 101
    CallLayout { name: "MPI_Graphdims_get", fields: Some("hii"), root_check: None }, // 102
    CallLayout { name: "MPI_Graph_get", fields: Some("iihiiII"), root_check: None }, // 103
    CallLayout { name: "MPI_Cartdim_get", fields: Some("hi"), root_check: None }, // 104
    CallLayout { name: "MPI_Cart_get", fields: Some("ihiIIy"), root_check: None }, // 105
    CallLayout { name: "MPI_Cart_rank", fields: Some("ihIi"), root_check: None }, // 106
    CallLayout { name: "MPI_Cart_coords", fields: Some("ihiiI"), root_check: None }, // 107
    CallLayout { name: "MPI_Graph_neighbors_count", fields: Some("hii"), root_check: None }, // 108
    CallLayout { name: "MPI_Graph_neighbors", fields: Some("ihiiI"), root_check: None }, // 109
    CallLayout { name: "MPI_Cart_shift", fields: Some("hiiii"), root_check: None }, // 110
    CallLayout { name: "MPI_Cart_sub", fields: Some("ihIh"), root_check: None }, // 111
    CallLayout { name: "MPI_Cart_map", fields: Some("hiIIi"), root_check: None }, // 112
    CallLayout { name: "MPI_Graph_map", fields: Some("ihiIIi"), root_check: None }, // 113
    CallLayout { name: "MPI_Get_processor_name", fields: Some("si"), root_check: None }, // 114
    CallLayout { name: "MPI_Get_version", fields: Some("ii"), root_check: None }, // 115
    CallLayout { name: "MPI_Errhandler_create", fields: Some("h"), root_check: None }, // 116
    CallLayout { name: "MPI_Errhandler_set", fields: Some("hh"), root_check: None }, // 117
    CallLayout { name: "MPI_Errhandler_get", fields: Some("hh"), root_check: None }, // 118
    CallLayout { name: "MPI_Errhandler_free", fields: Some("h"), root_check: None }, // 119
    CallLayout { name: "MPI_Error_string", fields: Some("isi"), root_check: None }, // 120
    CallLayout { name: "MPI_Error_class", fields: Some("ii"), root_check: None }, // 121
    CallLayout { name: "MPI_Wtime", fields: Some(""), root_check: None },     // 122
    CallLayout { name: "MPI_Wtick", fields: Some(""), root_check: None },     // 123
    CallLayout { name: "MPI_Init", fields: Some("n"), root_check: None },     // 124
    CallLayout { name: "MPI_Finalize", fields: Some(""), root_check: None },  // 125
    CallLayout { name: "MPI_Initialized", fields: Some("i"), root_check: None }, // 126
    CallLayout { name: "MPI_Abort", fields: Some("hi"), root_check: None },   // 127
    CallLayout { name: "MPI_Pcontrol", fields: None, root_check: None },      // 128
    CallLayout { name: "MPI_Close_port", fields: Some("s"), root_check: None }, // 129
    CallLayout { name: "MPI_Comm_accept", fields: Some("shihh"), root_check: None }, // 130
    CallLayout { name: "MPI_Comm_connect", fields: Some("shihh"), root_check: None }, // 131
    CallLayout { name: "MPI_Comm_disconnect", fields: Some("h"), root_check: None }, // 132
    CallLayout { name: "MPI_Comm_get_parent", fields: Some("h"), root_check: None }, // 133
    CallLayout { name: "MPI_Comm_join", fields: Some("ih"), root_check: None }, // 134
    CallLayout { name: "MPI_Comm_spawn", fields: Some("iihh?s?T?i?h?I"), root_check: Some((0, 1)) }, // 135
    CallLayout {
        name: "MPI_Comm_spawn_multiple",
        fields: Some("iiihh?i?T?U?I?H?I"),
        root_check: Some((1, 2)),
    }, // 136
    CallLayout { name: "MPI_Lookup_name", fields: Some("shs"), root_check: None }, // 137
    CallLayout { name: "MPI_Open_port", fields: Some("hs"), root_check: None }, // 138
    CallLayout { name: "MPI_Publish_name", fields: Some("shs"), root_check: None }, // 139
    CallLayout { name: "MPI_Unpublish_name", fields: Some("shs"), root_check: None }, // 140
    CallLayout { name: "MPI_Accumulate", fields: Some("ihiiihbh"), root_check: None }, // 141
    CallLayout { name: "MPI_Get", fields: Some("ihiiihh"), root_check: None }, // 142
    CallLayout { name: "MPI_Put", fields: Some("ihiiihh"), root_check: None }, // 143
    CallLayout { name: "MPI_Win_complete", fields: Some("h"), root_check: None }, // 144
    CallLayout { name: "MPI_Win_create", fields: Some("iihhh"), root_check: None }, // 145
    CallLayout { name: "MPI_Win_fence", fields: Some("bh"), root_check: None }, // 146
    CallLayout { name: "MPI_Win_free", fields: Some("h"), root_check: None }, // 147
    CallLayout { name: "MPI_Win_get_group", fields: Some("hh"), root_check: None }, // 148
    CallLayout { name: "MPI_Win_lock", fields: Some("bibh"), root_check: None }, // 149
    CallLayout { name: "MPI_Win_post", fields: Some("hbh"), root_check: None }, // 150
    CallLayout { name: "MPI_Win_start", fields: Some("hbh"), root_check: None }, // 151
    CallLayout { name: "MPI_Win_test", fields: Some("hi"), root_check: None }, // 152
    CallLayout { name: "MPI_Win_unlock", fields: Some("ih"), root_check: None }, // 153
    CallLayout { name: "MPI_Win_wait", fields: Some("h"), root_check: None }, // 154
    CallLayout { name: "MPI_Alltoallw", fields: Some("iIIHIIHh"), root_check: None }, // 155
    CallLayout { name: "MPI_Exscan", fields: Some("ihbh"), root_check: None }, // 156
    CallLayout { name: "MPI_Add_error_class", fields: Some("i"), root_check: None }, // 157
    CallLayout { name: "MPI_Add_error_code", fields: Some("ii"), root_check: None }, // 158
    CallLayout { name: "MPI_Add_error_string", fields: Some("is"), root_check: None }, // 159
    CallLayout { name: "MPI_Comm_call_errhandler", fields: Some("hi"), root_check: None }, // 160
    CallLayout { name: "MPI_Comm_create_keyval", fields: Some("h"), root_check: None }, // 161
    CallLayout { name: "MPI_Comm_delete_attr", fields: Some("hh"), root_check: None }, // 162
    CallLayout { name: "MPI_Comm_free_keyval", fields: Some("h"), root_check: None }, // 163
    CallLayout { name: "MPI_Comm_get_attr", fields: Some("hhi"), root_check: None }, // 164
    CallLayout { name: "MPI_Comm_get_name", fields: Some("hsi"), root_check: None }, // 165
    CallLayout { name: "MPI_Comm_set_attr", fields: Some("hh"), root_check: None }, // 166
    CallLayout { name: "MPI_Comm_set_name", fields: Some("hs"), root_check: None }, // 167
    CallLayout { name: "MPI_File_call_errhandler", fields: Some("hi"), root_check: None }, // 168
    CallLayout { name: "MPI_Grequest_complete", fields: Some("i"), root_check: None }, // 169
    CallLayout { name: "MPI_Grequest_start", fields: Some("i"), root_check: None }, // 170
    CallLayout { name: "MPI_Init_thread", fields: Some("Tbb"), root_check: None }, // 171
    CallLayout { name: "MPI_Is_thread_main", fields: Some("i"), root_check: None }, // 172
    CallLayout { name: "MPI_Query_thread", fields: Some("b"), root_check: None }, // 173
    CallLayout { name: "MPI_Status_set_cancelled", fields: Some("Si"), root_check: None }, // 174
    CallLayout { name: "MPI_Status_set_elements", fields: Some("Shi"), root_check: None }, // 175
    CallLayout { name: "MPI_Type_create_keyval", fields: Some("h"), root_check: None }, // 176
    CallLayout { name: "MPI_Type_delete_attr", fields: Some("hh"), root_check: None }, // 177
    CallLayout { name: "MPI_Type_dup", fields: Some("hh"), root_check: None }, // 178
    CallLayout { name: "MPI_Type_free_keyval", fields: Some("h"), root_check: None }, // 179
    CallLayout { name: "MPI_Type_get_attr", fields: Some("hhi"), root_check: None }, // 180
    CallLayout { name: "MPI_Type_get_contents", fields: Some("iiihiiiIIH"), root_check: None }, // 181
    CallLayout { name: "MPI_Type_get_envelope", fields: Some("hiiib"), root_check: None }, // 182
    CallLayout { name: "MPI_Type_get_name", fields: Some("hsi"), root_check: None }, // 183
    CallLayout { name: "MPI_Type_set_attr", fields: Some("hh"), root_check: None }, // 184
    CallLayout { name: "MPI_Type_set_name", fields: Some("hs"), root_check: None }, // 185
    CallLayout { name: "MPI_Type_match_size", fields: Some("bih"), root_check: None }, // 186
    CallLayout { name: "MPI_Win_call_errhandler", fields: Some("hi"), root_check: None }, // 187
    CallLayout { name: "MPI_Win_create_keyval", fields: Some("h"), root_check: None }, // 188
    CallLayout { name: "MPI_Win_delete_attr", fields: Some("hh"), root_check: None }, // 189
    CallLayout { name: "MPI_Win_free_keyval", fields: Some("h"), root_check: None }, // 190
    CallLayout { name: "MPI_Win_get_attr", fields: Some("hhi"), root_check: None }, // 191
    CallLayout { name: "MPI_Win_get_name", fields: Some("hsi"), root_check: None }, // 192
    CallLayout { name: "MPI_Win_set_attr", fields: Some("hh"), root_check: None }, // 193
    CallLayout { name: "MPI_Win_set_name", fields: Some("hs"), root_check: None }, // 194
    CallLayout { name: "MPI_Alloc_mem", fields: Some("ih"), root_check: None }, // 195
    CallLayout { name: "MPI_Comm_create_errhandler", fields: Some("h"), root_check: None }, // 196
    CallLayout { name: "MPI_Comm_get_errhandler", fields: Some("hh"), root_check: None }, // 197
    CallLayout { name: "MPI_Comm_set_errhandler", fields: Some("hh"), root_check: None }, // 198
    CallLayout { name: "MPI_File_create_errhandler", fields: Some("h"), root_check: None }, // 199
    CallLayout { name: "MPI_File_get_errhandler", fields: Some("hh"), root_check: None }, // 200
    CallLayout { name: "MPI_File_set_errhandler", fields: Some("hh"), root_check: None }, // 201
    CallLayout { name: "MPI_Finalized", fields: Some("i"), root_check: None }, // 202
    CallLayout { name: "MPI_Free_mem", fields: Some(""), root_check: None },  // 203
    CallLayout { name: "MPI_Get_address", fields: Some("i"), root_check: None }, // 204
    CallLayout { name: "MPI_Info_create", fields: Some("h"), root_check: None }, // 205
    CallLayout { name: "MPI_Info_delete", fields: Some("hs"), root_check: None }, // 206
    CallLayout { name: "MPI_Info_dup", fields: Some("hh"), root_check: None }, // 207
    CallLayout { name: "MPI_Info_free", fields: Some("h"), root_check: None }, // 208
    CallLayout { name: "MPI_Info_get", fields: Some("hsisi"), root_check: None }, // 209
    CallLayout { name: "MPI_Info_get_nkeys", fields: Some("hi"), root_check: None }, // 210
    CallLayout { name: "MPI_Info_get_nthkey", fields: Some("his"), root_check: None }, // 211
    CallLayout { name: "MPI_Info_get_valuelen", fields: Some("hsii"), root_check: None }, // 212
    CallLayout { name: "MPI_Info_set", fields: Some("hss"), root_check: None }, // 213
    CallLayout { name: "MPI_Pack_external", fields: Some("sihiii"), root_check: None }, // 214
    CallLayout { name: "MPI_Pack_external_size", fields: Some("sihi"), root_check: None }, // 215
    CallLayout { name: "MPI_Request_get_status", fields: Some("iiS"), root_check: None }, // 216
    CallLayout { name: "MPI_Type_create_darray", fields: Some("iiiIBIIbhh"), root_check: None }, // 217
    CallLayout { name: "MPI_Type_create_hindexed", fields: Some("iIIhh"), root_check: None }, // 218
    CallLayout { name: "MPI_Type_create_hvector", fields: Some("iiihh"), root_check: None }, // 219
    CallLayout { name: "MPI_Type_create_indexed_block", fields: Some("iiIhh"), root_check: None }, // 220
    CallLayout { name: "MPI_Type_create_resized", fields: Some("hiih"), root_check: None }, // 221
    CallLayout { name: "MPI_Type_create_struct", fields: Some("iIIHh"), root_check: None }, // 222
    CallLayout { name: "MPI_Type_create_subarray", fields: Some("iIIIbhh"), root_check: None }, // 223
    CallLayout { name: "MPI_Type_get_extent", fields: Some("hii"), root_check: None }, // 224
    CallLayout { name: "MPI_Type_get_true_extent", fields: Some("hii"), root_check: None }, // 225
    CallLayout { name: "MPI_Unpack_external", fields: Some("siiiih"), root_check: None }, // 226
    CallLayout { name: "MPI_Win_create_errhandler", fields: Some("h"), root_check: None }, // 227
    CallLayout { name: "MPI_Win_get_errhandler", fields: Some("hh"), root_check: None }, // 228
    CallLayout { name: "MPI_Win_set_errhandler", fields: Some("hh"), root_check: None }, // 229
    CallLayout { name: "MPI_File_open", fields: Some("hsbhh"), root_check: None }, // 230
    CallLayout { name: "MPI_File_close", fields: Some("h"), root_check: None }, // 231
    CallLayout { name: "MPI_File_delete", fields: Some("sh"), root_check: None }, // 232
    CallLayout { name: "MPI_File_set_size", fields: Some("hl"), root_check: None }, // 233
    CallLayout { name: "MPI_File_preallocate", fields: Some("hl"), root_check: None }, // 234
    CallLayout { name: "MPI_File_get_size", fields: Some("hl"), root_check: None }, // 235
    CallLayout { name: "MPI_File_get_group", fields: Some("hh"), root_check: None }, // 236
    CallLayout { name: "MPI_File_get_amode", fields: Some("hb"), root_check: None }, // 237
    CallLayout { name: "MPI_File_set_info", fields: Some("hh"), root_check: None }, // 238
    CallLayout { name: "MPI_File_get_info", fields: Some("hh"), root_check: None }, // 239
    CallLayout { name: "MPI_File_set_view", fields: Some("hlhhsh"), root_check: None }, // 240
    CallLayout { name: "MPI_File_get_view", fields: Some("hlhhs"), root_check: None }, // 241
    CallLayout { name: "MPI_File_read_at", fields: Some("hlihS"), root_check: None }, // 242
    CallLayout { name: "MPI_File_read_at_all", fields: Some("hlihS"), root_check: None }, // 243
    CallLayout { name: "MPI_File_write_at", fields: Some("hlihS"), root_check: None }, // 244
    CallLayout { name: "MPI_File_write_at_all", fields: Some("hlihS"), root_check: None }, // 245
    CallLayout { name: "MPI_File_iread_at", fields: Some("hlihi"), root_check: None }, // 246
    CallLayout { name: "MPI_File_iwrite_at", fields: Some("hlihi"), root_check: None }, // 247
    CallLayout { name: "MPI_File_read", fields: Some("hihS"), root_check: None }, // 248
    CallLayout { name: "MPI_File_read_all", fields: Some("hihS"), root_check: None }, // 249
    CallLayout { name: "MPI_File_write", fields: Some("hihS"), root_check: None }, // 250
    CallLayout { name: "MPI_File_write_all", fields: Some("hihS"), root_check: None }, // 251
    CallLayout { name: "MPI_File_iread", fields: Some("hihi"), root_check: None }, // 252
    CallLayout { name: "MPI_File_iwrite", fields: Some("hihi"), root_check: None }, // 253
    CallLayout { name: "MPI_File_seek", fields: Some("hlb"), root_check: None }, // 254
    CallLayout { name: "MPI_File_get_position", fields: Some("hl"), root_check: None }, // 255
    CallLayout { name: "MPI_File_get_byte_offset", fields: Some("hll"), root_check: None }, // 256
    CallLayout { name: "MPI_File_read_shared", fields: Some("hihS"), root_check: None }, // 257
    CallLayout { name: "MPI_File_write_shared", fields: Some("hihS"), root_check: None }, // 258
    CallLayout { name: "MPI_File_iread_shared", fields: Some("hihi"), root_check: None }, // 259
    CallLayout { name: "MPI_File_iwrite_shared", fields: Some("hihi"), root_check: None }, // 260
    CallLayout { name: "MPI_File_read_ordered", fields: Some("hihS"), root_check: None }, // 261
    CallLayout { name: "MPI_File_write_ordered", fields: Some("hihS"), root_check: None }, // 262
    CallLayout { name: "MPI_File_seek_shared", fields: Some("hlb"), root_check: None }, // 263
    CallLayout { name: "MPI_File_get_position_shared", fields: Some("hl"), root_check: None }, // 264
    CallLayout { name: "MPI_File_read_at_all_begin", fields: Some("hlih"), root_check: None }, // 265
    CallLayout { name: "MPI_File_read_at_all_end", fields: Some("hS"), root_check: None }, // 266
    CallLayout { name: "MPI_File_write_at_all_begin", fields: Some("hlih"), root_check: None }, // 267
    CallLayout { name: "MPI_File_write_at_all_end", fields: Some("hS"), root_check: None }, // 268
    CallLayout { name: "MPI_File_read_all_begin", fields: Some("hih"), root_check: None }, // 269
    CallLayout { name: "MPI_File_read_all_end", fields: Some("hS"), root_check: None }, // 270
    CallLayout { name: "MPI_File_write_all_begin", fields: Some("hih"), root_check: None }, // 271
    CallLayout { name: "MPI_File_write_all_end", fields: Some("hS"), root_check: None }, // 272
    CallLayout { name: "MPI_File_read_ordered_begin", fields: Some("hih"), root_check: None }, // 273
    CallLayout { name: "MPI_File_read_ordered_end", fields: Some("hS"), root_check: None }, // 274
    CallLayout { name: "MPI_File_write_ordered_begin", fields: Some("hih"), root_check: None }, // 275
    CallLayout { name: "MPI_File_write_ordered_end", fields: Some("hS"), root_check: None }, // 276
    CallLayout { name: "MPI_File_get_type_extent", fields: Some("hhi"), root_check: None }, // 277
    CallLayout { name: "MPI_Register_datarep", fields: Some("s"), root_check: None }, // 278
    CallLayout { name: "MPI_File_set_atomicity", fields: Some("hi"), root_check: None }, // 279
    CallLayout { name: "MPI_File_get_atomicity", fields: Some("hi"), root_check: None }, // 280
    CallLayout { name: "MPI_File_sync", fields: Some("h"), root_check: None }, // 281
    CallLayout { name: "MPIO_Test", fields: Some("iiS"), root_check: None },  // 282
    CallLayout { name: "MPIO_Wait", fields: Some("iS"), root_check: None },   // 283
    CallLayout { name: "MPIO_Testall", fields: Some("iIiS"), root_check: None }, // 284
    CallLayout { name: "MPIO_Waitall", fields: Some("iIS"), root_check: None }, // 285
    CallLayout { name: "MPIO_Testany", fields: Some("iIiiS"), root_check: None }, // 286
    CallLayout { name: "MPIO_Waitany", fields: Some("iIiS"), root_check: None }, // 287
    CallLayout { name: "MPIO_Waitsome", fields: Some("iIiIS"), root_check: None }, // 288
    CallLayout { name: "MPIO_Testsome", fields: Some("iIiIS"), root_check: None }, // 289
    CallLayout { name: "MPI_ALL_FUNCTIONS", fields: None, root_check: None }, // 290
    CallLayout { name: "Function_enter", fields: Some("l"), root_check: None }, // 291
    CallLayout { name: "Function_exit", fields: Some("l"), root_check: None }, // 292
];
