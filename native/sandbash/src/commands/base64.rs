//! `base64 [-d] [-i] [-w COLS] [FILE]` (GNU coreutils); the codec is in `basenc`.

use super::basenc::{self, Base};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Base64;

#[async_trait]
impl Utility for Base64 {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        basenc::run(ctx, Base::B64).await
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, make_fs, run_raw};
    use crate::limits::Limits;

    #[test]
    fn encodes() {
        check(&["base64"], &[], "", "", "", 0);
        check(&["base64", "-w0", "abc"], &[("abc", "abc")], "", "YWJj", "", 0);
        check(&["base64", "-w", "5", "abc"], &[("abc", "abc")], "", "YWJj\n", "", 0);
        check(
            &["base64"],
            &[],
            "Hello world, this is a somewhat longer line that needs to wrap past seventy six columns!",
            "SGVsbG8gd29ybGQsIHRoaXMgaXMgYSBzb21ld2hhdCBsb25nZXIgbGluZSB0aGF0IG5lZWRzIHRv\n\
             IHdyYXAgcGFzdCBzZXZlbnR5IHNpeCBjb2x1bW5zIQ==\n",
            "",
            0,
        );
        let zeros = "\0".repeat(100);
        check(
            &["base64", "-w", "30"],
            &[],
            &zeros,
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n\
             AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAA==\n",
            "",
            0,
        );
    }

    #[test]
    fn decodes() {
        check(&["base64", "-d"], &[], "YQ==\n", "a", "", 0);
        check(&["base64", "-d"], &[], "YWJjZA==YWJj\n", "abcdabc", "", 0);
        check(&["base64", "--ignore-garbage", "-d"], &[], "Y*W*J*j\n", "abc", "", 0);
        check(&["base64", "-d", "-w", "3"], &[], "YQ==\n", "a", "", 0);
        check(&["base64", "-d"], &[], "YQ\n", "a", "base64: invalid input\n", 1);
        check(&["base64", "-d"], &[], "YWJ\n", "ab", "base64: invalid input\n", 1);
        check(&["base64", "-d"], &[], "YW Jj\n", "a", "base64: invalid input\n", 1);
        // Binary round trip.
        let fs = make_fs(&[]);
        let (out, _, st) = run_raw(&fs, &["base64", "-d"], b"AP+A\n", &[], Limits::default());
        assert_eq!((out, st), (vec![0, 255, 128], 0));
    }

    #[test]
    fn errors() {
        check(&["base64", "-w", "x"], &[], "", "", "base64: invalid wrap size: 'x'\n", 1);
        check(&["base64", "--wrap=-1"], &[], "", "", "base64: invalid wrap size: '-1'\n", 1);
        check(
            &["base64", "a", "b"],
            &[],
            "",
            "",
            "base64: extra operand 'b'\nTry 'base64 --help' for more information.\n",
            1,
        );
        check(&["base64", "nofile"], &[], "", "", "base64: nofile: No such file or directory\n", 1);
        check(&["base64", "d"], &[("d/", "")], "", "", "base64: read error: Is a directory\n", 1);
        check(
            &["base64", "-x"],
            &[],
            "",
            "",
            "base64: invalid option -- 'x'\nTry 'base64 --help' for more information.\n",
            1,
        );
    }
}
