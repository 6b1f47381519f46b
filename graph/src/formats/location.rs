//! `PATH[:START[-END]]`: the one syntax for a file and an optional line range on the command
//! line (`refs`, `cites`, `read-many`, `digest`).
