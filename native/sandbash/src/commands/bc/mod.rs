//! `bc [-lqsw] [FILE]...` (GNU bc 1.07): arbitrary-precision calculator.
//! The input is run a line at a time as GNU does (a syntax error skips the
//! rest of its line, a runtime error stops its line). Numbers, scales and
//! `obase` output are in `bc_num`; lines of output wrap at BC_LINE_LENGTH
//! (70) with a backslash. Loops poll the exec's budget, calls are bounded by
//! `max_function_depth`, and results bigger than `max_string_bytes` stop.

mod lex;
mod parse;
mod vm;
use lex::*;
use parse::*;
use vm::*;

pub(crate) mod num;

use num::{lib, to_base, Num};
use crate::commands::util::{Arg, Spec};
use crate::commands::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::Arc;

pub struct Bc;

const SPEC: Spec = Spec::new(
    "lqswiv",
    &[
        ("mathlib", Arg::No, "l"),
        ("quiet", Arg::No, "q"),
        ("standard", Arg::No, "s"),
        ("warn", Arg::No, "w"),
        ("interactive", Arg::No, "i"),
        ("version", Arg::No, "v"),
    ],
    "[options] [file ...]",
);

#[async_trait]
impl Utility for Bc {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.has("v") {
            ctx.out(b"bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.\n").await?;
            return Ok(0);
        }
        let line_size = match ctx.env.get("BC_LINE_LENGTH").and_then(|v| v.trim().parse::<i64>().ok()) {
            Some(0) => 0,
            Some(n) if n >= 3 => n as usize,
            _ => 70,
        };
        // Schoolbook arithmetic is quadratic: keep numbers where a product
        // takes well under a second.
        let max_digits = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX).min(MAX_DIGITS);
        let mut m = Machine {
            ctx,
            vars: HashMap::new(),
            arrays: HashMap::new(),
            funcs: HashMap::new(),
            scale: 0,
            ibase: 10,
            obase: 10,
            last: Num::default(),
            out: Vec::new(),
            pending: Vec::new(),
            col: 0,
            line_size,
            frames: Vec::new(),
            adr: 0,
            steps: 0,
            max_digits,
            stopped: false,
            mathlib: false,
        };
        if p.has("l") {
            m.scale = 20;
            m.mathlib = true;
        }
        for f in &p.operands {
            let src = match ctx.read_operand(f).await {
                Ok(s) => s,
                Err(e) => {
                    ctx.err(format!("File {f} is unavailable.")).await?;
                    let _ = e;
                    return Ok(1);
                }
            };
            if !run_source(&mut m, &src, f).await? {
                return Ok(i32::from(m.stopped));
            }
        }
        let src = match ctx.read_stdin().await {
            Ok(s) => s,
            Err(_) => return Ok(1),
        };
        run_source(&mut m, &src, "(standard_in)").await?;
        // A budget stop is not bc's own success.
        Ok(i32::from(m.stopped))
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    fn bc(script: &str, out: &str) {
        check(&["bc"], &[], script, out, "", 0);
    }

    /// A tree deeper than MAX_TREE_DEPTH (`1+1+...` is built in a loop) ends
    /// bc as GNU's parser stack does: `memory exhausted`, nothing more read.
    #[test]
    fn long_operator_chains_are_bounded() {
        let within = format!("{}1\n", "1+".repeat(super::MAX_TREE_DEPTH - 1));
        bc(&within, &format!("{}\n", super::MAX_TREE_DEPTH));
        for chain in ["1+", "1*", "1&&", "1<", "a=", "2^", "- ", "!", "("] {
            let script = format!("{}1\n2+2\n", chain.repeat(100_000));
            check(&["bc"], &[], &script, "", "(standard_in) 1: memory exhausted\n", 0);
        }
    }
    fn bcl(script: &str, out: &str) {
        check(&["bc", "-l"], &[], script, out, "", 0);
    }

    #[test]
    fn arithmetic_and_scale() {
        bc(
            "2^300\n",
            "20370359763344860862684456884093781610514683936659362506361404493543\\\n81299763336706183397376\n",
        );
        bc("0.00\n", "0\n");
        bc("-0.5\n", "-.5\n");
        bc("1.50\n", "1.50\n");
        bc("scale=3; 1/3\n", ".333\n");
        bc("10/3\n", "3\n");
        bc("1.5*1.25\n", "1.87\n");
        bc("scale=1; 1.55*1.55\n", "2.40\n");
        bc("7%3\n", "1\n");
        bc("scale=2; 7%3\n", ".01\n");
        bc("-7%3\n", "-1\n");
        bc("2^-2\n", "0\n");
        bc("scale=5; 2^-2\n", ".25000\n");
        bc("1.5^3\n", "3.3\n");
        bc("sqrt(2)\n", "1\n");
        bc("scale=10; sqrt(2)\n", "1.4142135623\n");
        bc("-2^2\n", "4\n");
        bc("length(123.45); length(0); length(0.001); scale(1.230)\n", "5\n1\n3\n3\n");
        bc("length(0.0); length(0.10); length(10.0); length(000.5); length(-12)\n", "1\n2\n3\n1\n2\n");
        bc("scale=2; 1/3; last; .\n", ".33\n.33\n.33\n");
    }

    #[test]
    fn bases() {
        bc("obase=16; 255; -255.5; 0.5\n", "FF\n-FF.8\n.8\n");
        bc("obase=2; 10\n", "1010\n");
        bc("obase=20; 12345.67\n", " 01 10 17 05.13 08\n");
        bc("ibase=16; FF; A\n", "255\n10\n");
        bc("ibase=2; A; 12; 1.1\n", "10\n3\n1.5\n");
        bc("ibase=16; 1.8; .F\n", "1.5\n.9\n");
        bc("obase=16; 10.25\n", "A.40\n");
    }

    #[test]
    fn statements() {
        bc("x=5; x++; x; ++x; x--; x\n", "5\n6\n7\n7\n6\n");
        bc("a = 3 < 4; a\n", "1\n3\n");
        bc("3 < 4 && 2 > 1\n", "1\n");
        bc("!0\n", "1\n");
        bc("if (1 > 0) 5 else 6\n", "5\n");
        bc("i=0; while (i < 3) { i; i += 1 }\n", "0\n1\n2\n");
        bc("for (i=0; i<3; i++) i\n", "0\n1\n2\n");
        bc("define f(x) { return (x*2) }; f(4)\n", "8\n");
        bc("define f(x) { auto y; y = x; return y^2 }\nf(3)\n", "9\n");
        bc("define f() { 5 }; f()\n", "5\n0\n");
        bc("define f(x) { if (x) return 1; }; f(0)\n", "0\n");
        bc("a[3]=5; a[3]; a[1]\n", "5\n0\n");
        bc("define f(a[]) { return a[0] }; b[0]=7; f(b[])\n", "7\n");
        bc("\"hello\\n\"\n", "hello\\n");
        bc("print 1, \" \", 2, \"\\n\"\n", "1 2\n");
        bc("print \"a\\tb\\q\\\\c\\n\"\n", "a\tb\"\\c\n");
        bc("5; quit\n", "");
        bc("5\nquit\n", "5\n");
        bc("halt; 5\n", "");
        bc("x\n", "0\n");
    }

    #[test]
    fn errors() {
        check(&["bc"], &[], "foo bar\n", "", "(standard_in) 1: syntax error\n", 0);
        check(&["bc"], &[], "1 +\n", "", "(standard_in) 2: syntax error\n", 0);
        check(&["bc"], &[], "if (0) 1\nelse 2\n", "", "(standard_in) 2: syntax error\n", 0);
        check(&["bc"], &[], "1/0\n", "", "Runtime error (func=(main), adr=3): Divide by zero\n", 0);
        let got = crate::commands::util::testutil::run(&["bc"], &[], "sqrt(-1); 2\n3\n");
        assert_eq!(got.out, "3\n");
        assert!(got.err.ends_with("Square root of a negative number\n"));
    }

    #[test]
    fn placement_errors_and_illegal_characters() {
        check(&["bc"], &[], "1 @ + 2\n", "", "(standard_in) 1: illegal character: @\n", 0);
        check(&["bc"], &[], "1 $ 2\n", "", "(standard_in) 1: illegal character: $\n(standard_in) 1: syntax error\n", 0);
        check(&["bc"], &[], "break; 5\n", "", "(standard_in) 1: Break outside a for/while\n", 0);
        check(&["bc"], &[], "return; 5\n6\n", "6\n", "(standard_in) 1: Return outside of a function.\n", 0);
        check(
            &["bc"],
            &[],
            "\"abc\" 1 @\n",
            "",
            "(standard_in) 1: syntax error\n(standard_in) 1: illegal character: @\n",
            0,
        );
        bc("ibase=16; G; Z; 1G\n", "16\n35\n31\n");
        bc(
            "limits\n",
            "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\n\
             BC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n",
        );
    }

    #[test]
    fn loops_count_against_the_budget() {
        let fs = crate::commands::util::testutil::make_fs(&[]);
        let limits = crate::limits::Limits { max_total_loop_iterations: 100, ..Default::default() };
        let got = crate::commands::util::testutil::run_full(&fs, &["bc"], b"1\nwhile (1) {}\n2\n", &[], limits);
        assert_eq!(got.out, "1\n");
        assert_eq!(got.err, "bc: maximum total loop iterations exceeded (max_total_loop_iterations: 100)\n");
        assert_eq!(got.status, 1);
    }

    #[test]
    fn mathlib() {
        bcl("scale\n", "20\n");
        bcl("s(1)\n", ".84147098480789650665\n");
        bcl(
            "c(1); a(1); l(2); e(1); j(1,2)\n",
            ".54030230586813971740\n.78539816339744830961\n.69314718055994530941\n2.71828182845904523536\n.57672480775687338720\n",
        );
        bcl("e(100)\n", "26881171418161354484126255515800135873611118.77374192241519160861\n");
    }

    #[test]
    fn runtime_message_addresses() {
        // GNU's byte code addresses: constants `K..:` (leading zeros dropped),
        // `0`/`1` one byte, loads and stores two, operators one.
        let w = |adr: u32| format!("Runtime warning (func=(main), adr={adr}): non-zero scale in exponent\n");
        check(&["bc"], &[], "10/0\n", "", "Runtime error (func=(main), adr=6): Divide by zero\n", 0);
        check(&["bc"], &[], "2^0.5\n", "1\n", &w(8), 0);
        check(&["bc"], &[], "22^0.5\n", "1\n", &w(9), 0);
        check(&["bc"], &[], "x=1;y=2^0.5\n", "", &w(12), 0);
        check(&["bc"], &[], "a[1]=2^0.5\n", "", &w(9), 0);
        let e = "Runtime error (func=(main), adr=5): Array a subscript out of bounds.\n";
        check(&["bc"], &[], "a[-1] = 1\n", "", e, 0);
        check(&["bc"], &[], "x+2^0.5\n", "1\n", &w(10), 0);
        check(&["bc"], &[], "x=5; x+=2^0.5; x\n", "6\n", &w(16), 0);
        check(&["bc"], &[], "-2^0.5\n", "1\n", &w(9), 0);
        let e = "Runtime error (func=(main), adr=4): Square root of a negative number\n";
        check(&["bc"], &[], "sqrt(-1)\n", "", e, 0);
        check(&["bc"], &[], "length(1/0)\n", "", "Runtime error (func=(main), adr=3): Divide by zero\n", 0);
        let e = "Runtime warning (func=f, adr=7): non-zero scale in exponent\n";
        check(&["bc"], &[], "define f(x) { return x^0.5; }\nf(2)\n", "1\n", e, 0);
    }

    #[test]
    fn runtime_message_addresses_in_loops() {
        let w = |adr: u32| format!("Runtime warning (func=(main), adr={adr}): non-zero scale in exponent\n");
        check(&["bc"], &[], "for (i=0;i<3;i++) 2^0.5\n", "1\n1\n1\n", &w(32).repeat(3), 0);
        check(&["bc"], &[], "for (i=0;i<1;i++) 2^0.5\n", "1\n", &w(30), 0);
        check(&["bc"], &[], "for (;;) { 2^0.5; break; }\n", "1\n", &w(18), 0);
        check(&["bc"], &[], "while (i<1) { i=1; 2^0.5 }\n", "1\n", &w(19), 0);
        check(&["bc"], &[], "while (1) { 2^0.5; break; }\n", "1\n", &w(12), 0);
        check(&["bc"], &[], "if (1) 2^0.5\n", "1\n", &w(12), 0);
        check(&["bc"], &[], "if (0) 1 else 2^0.5\n", "1\n", &w(17), 0);
        check(&["bc"], &[], "i=0; while (i<1) { i=1; 2^0.5 }\n", "1\n", &w(23), 0);
        check(&["bc"], &[], "for (i=0;i<3;i++) { i; 2^0.5 }\n", "0\n1\n1\n1\n2\n1\n", &w(35).repeat(3), 0);
    }

    #[test]
    fn reads_dev_stdin() {
        check(&["bc", "/dev/stdin"], &[], "1+2\n", "3\n", "", 0);
    }
}
