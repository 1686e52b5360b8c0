//! Rustler glue between `ExBashkit.Native` and the `sandbash` interpreter. This
//! crate holds no shell logic: it decodes options, owns the shared tokio runtime,
//! wraps sessions in resources and turns results into terms.

mod admission;
mod bridge;
mod callbacks;
mod changes;
mod checkpoint;
mod files;
mod guard;
mod jobs;
mod options;
mod parked;
mod reply;
mod runtime;
mod session;
mod snapshot;
mod terms;
mod workspace;

fn on_load(_env: rustler::Env, _info: rustler::Term) -> bool {
    // One line per panic instead of a backtrace on the VM's stderr; every panic is
    // also caught at the boundary and returned as `{:error, _}`.
    std::panic::set_hook(Box::new(|info| eprintln!("ex_bashkit: internal error: {info}")));
    true
}

rustler::init!("Elixir.ExBashkit.Native", load = on_load);
