//! NIF glue.
