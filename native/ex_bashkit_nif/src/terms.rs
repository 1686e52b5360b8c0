//! Small term builders shared by the NIFs.

use rustler::types::binary::OwnedBinary;
use rustler::{Binary, Encoder, Env, Term};
use sandbash::ExecResult;

rustler::atoms! {
    ok,
    error,
    overloaded,
    file,
    dir,
    symlink,
    r#type = "type",
    size,
}

/// A binary term holding `data` (a `Vec<u8>` would encode as a list).
pub fn bin<'a>(env: Env<'a>, data: &[u8]) -> Term<'a> {
    let mut b = OwnedBinary::new(data.len());
    b.as_mut_slice().copy_from_slice(data);
    Binary::from_owned(b, env).encode(env)
}

/// `{stdout, stderr, exit_code, queued_ms}`; Elixir wraps it in `%ExBashkit.Result{}`.
pub fn result<'a>(env: Env<'a>, r: &ExecResult) -> Term<'a> {
    (bin(env, &r.stdout), bin(env, &r.stderr), r.exit_code, r.queued_ms).encode(env)
}

/// `{:error, message}`.
pub fn err<'a>(env: Env<'a>, msg: &str) -> Term<'a> {
    (error(), msg).encode(env)
}
