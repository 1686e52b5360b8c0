//! awk tests: every expectation was printed by GNU awk 5.2.1 (run as `awk`,
//! `LC_ALL=C.UTF-8 TZ=UTC`) in a directory holding the same files.

use crate::commands::util::testutil::{check, run};

#[test]
fn fields() {
    check(&["awk", "{print $2, NF; print $NF}"], &[], "a b c\n", "b 3\nc\n", "", 0);
}

#[test]
fn field_sep_char() {
    check(&["awk", "-F:", "{print $1 \"-\" $3}"], &[], "x:y:z\n1:2:3\n", "x-z\n1-3\n", "", 0);
}

#[test]
fn field_sep_tab() {
    check(&["awk", "-F\\t", "{print $2}"], &[], "a\tb c\td\n", "b c\n", "", 0);
}

#[test]
fn field_sep_regex() {
    check(&["awk", "-F[0-9]", "{print $1 $2 $3}"], &[], "a1b2c\n", "abc\n", "", 0);
}

#[test]
fn field_sep_pipe_literal() {
    check(&["awk", "-F|", "{print $2}"], &[], "a|b|c\n", "b\n", "", 0);
}

#[test]
fn field_sep_dot_literal() {
    check(&["awk", "-F.", "{print $2}"], &[], "a.b.c\n", "b\n", "", 0);
}

#[test]
fn default_split_trims() {
    check(&["awk", "{print NF, \"[\" $1 \"]\"}"], &[], "  lead  trail  \n", "2 [lead]\n", "", 0);
}

#[test]
fn empty_fs_chars() {
    check(&["awk", "BEGIN{FS=\"\"} {print NF, $2}"], &[], "abc\n", "3 b\n", "", 0);
}

#[test]
fn fs_change_next_record() {
    check(&["awk", "{ FS = \":\"; print $1 }"], &[], "a:b c\nd:e f\n", "a:b\nd\n", "", 0);
}

#[test]
fn numbers_output() {
    check(&["awk", "BEGIN{print 1e30, 2^53, 0.1+0.2, -log(0), 1e300*1e300; x = 0.1; print x \"\"; print -3 % 2, 2^3^2, -2^2, !a + 1}"], &[], "", "1000000000000000019884624838656 9007199254740992 0.3 +inf +inf\n0.1\n-1 512 -4 2\n", "", 0);
}

#[test]
fn ofmt_convfmt() {
    check(
        &[
            "awk",
            "BEGIN { OFMT=\"%.2f\"; x=3.14159; print x, x \"\"; CONVFMT=\"%.3f\"; print x \"\"; y = 17; print y \"\" }",
        ],
        &[],
        "",
        "3.14 3.14159\n3.142\n17\n",
        "",
        0,
    );
}

#[test]
fn rebuild_uses_convfmt() {
    check(
        &["awk", "BEGIN{$0=\"a b c\"; $2=3.14159265; CONVFMT=\"%.2f\"; OFMT=\"%.3f\"; $3=2.71828; print; print $3}"],
        &[],
        "",
        "a 3.14 2.72\n2.718\n",
        "",
        0,
    );
}

#[test]
fn sum_end() {
    check(&["awk", "{s+=$1*$2} END{print s, NR}"], &[], "1 2\n3 4\n5 6\n", "44 3\n", "", 0);
}

#[test]
fn range_pattern() {
    check(&["awk", "/start/,/end/"], &[], "l1\nstart\nl2\nend\nl3\nstart\nl4\n", "start\nl2\nend\nstart\nl4\n", "", 0);
}

#[test]
fn range_same_line() {
    check(&["awk", "NR==2, NR==2"], &[], "1\n2\n3\n", "2\n", "", 0);
}

#[test]
fn paragraph_mode() {
    check(
        &["awk", "BEGIN{RS=\"\"}{print NR\": \"$0\" NF=\"NF; print $2}"],
        &[],
        "a\nb\n\n\nc\nd\n\n",
        "1: a\nb NF=2\nb\n2: c\nd NF=2\nd\n",
        "",
        0,
    );
}

#[test]
fn single_char_rs() {
    check(&["awk", "BEGIN{RS=\";\"}{print NR, $0}"], &[], "a,b;c,d;", "1 a,b\n2 c,d\n", "", 0);
}

#[test]
fn regex_rs_rt() {
    check(&["awk", "BEGIN{RS=\"[0-9]+\"}{print NR, $0, RT}"], &[], "a12b345c", "1 a 12\n2 b 345\n3 c \n", "", 0);
}

#[test]
fn recursion() {
    check(
        &["awk", "function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } BEGIN { print fib(20) }"],
        &[],
        "",
        "6765\n",
        "",
        0,
    );
}

#[test]
fn array_param_by_ref() {
    check(
        &["awk", "function f(a) { a[\"x\"]=1 } BEGIN { f(arr); print length(arr), arr[\"x\"] }"],
        &[],
        "",
        "1 1\n",
        "",
        0,
    );
}

#[test]
fn locals() {
    check(&["awk", "function f(n,   i, s) { for (i = 1; i <= n; i++) s = s i; return s } BEGIN { print f(5), i \"|\" s \"|\" }"], &[], "", "12345 ||\n", "", 0);
}

#[test]
fn split_forms() {
    check(&["awk", "BEGIN { n = split(\"a:b:c\", arr, \":\"); print n, arr[1], arr[3]; n = split(\"  a  b \", w); print n, w[1] w[2]; n = split(\"a1b22c\", z, /[0-9]+/); print n, z[3]; n = split(\"\", e); print n, length(e) }"], &[], "", "3 a c\n2 ab\n3 c\n0 0\n", "", 0);
}

#[test]
fn match_rstart() {
    check(
        &[
            "awk",
            "BEGIN { if (match(\"foobar\", /o+b/)) print RSTART, RLENGTH; print match(\"x\", /y/), RSTART, RLENGTH }",
        ],
        &[],
        "",
        "2 3\n0 0 -1\n",
        "",
        0,
    );
}

#[test]
fn match_array() {
    check(&["awk", "BEGIN { match(\"foo=bar\", /(\\w+)=(\\w+)/, m); print m[0], m[1], m[2], m[1, \"start\"], m[2, \"length\"] }"], &[], "", "foo=bar foo bar 1 3\n", "", 0);
}

#[test]
fn string_builtins() {
    check(&["awk", "BEGIN { print toupper(\"abc\"), tolower(\"ABC\"), index(\"hello\", \"ll\"), length(\"hello\"), length(12345), substr(\"hello\", 2, 3) }"], &[], "", "ABC abc 3 5 5 ell\n", "", 0);
}

#[test]
fn substr_edges() {
    check(&["awk", "BEGIN { s=\"hello\"; print substr(s,-1,3) \"|\" substr(s,0,2) \"|\" substr(s,1.5) \"|\" substr(s,2.5) \"|\" substr(s,1,2.5) \"|\" substr(s,3,-1) \"|\" substr(s,10) \"|\" }"], &[], "", "hel|he|hello|ello|he|||\n", "", 0);
}

#[test]
fn utf8_chars() {
    check(
        &[
            "awk",
            "BEGIN { print length(\"héllo\"), substr(\"héllo\",2,2), index(\"héllo\",\"l\"), toupper(\"héllo\") }",
        ],
        &[],
        "",
        "5 él 3 HÉLLO\n",
        "",
        0,
    );
}

#[test]
fn sub_gsub() {
    check(&["awk", "BEGIN { s = \"aaa\"; n = sub(/a/, \"b\", s); print n, s; t = \"hello world\"; gsub(/o/, \"0\", t); print t; v=\"aaa\"; print gsub(/a/,\"\\\\&\",v), v; w=\"aaa\"; gsub(/a/,\"\\\\\\\\&\",w); print w; x=\"a+b\"; gsub(/\\+/, \"\\\\\\\\\", x); print x }"], &[], "", "1 baa\nhell0 w0rld\n3 &&&\n\\a\\a\\a\na\\\\b\n", "", 0);
}

#[test]
fn gsub_empty_matches() {
    check(
        &["awk", "BEGIN{ s = \"xab\"; gsub(/x*/, \"-\", s); print s; u=\"hello\"; gsub(/l*/,\"[&]\",u); print u }"],
        &[],
        "",
        "-a-b-\n[]h[]e[ll]o[]\n",
        "",
        0,
    );
}

#[test]
fn gsub_record() {
    check(
        &["awk", "{ gsub(/o/, \"[&]\"); print; print sub(/z/, \"y\") }"],
        &[],
        "hello world\n",
        "hell[o] w[o]rld\n0\n",
        "",
        0,
    );
}

#[test]
fn gensub() {
    check(&["awk", "BEGIN { print gensub(/(a)(b)/, \"\\\\2\\\\1\", \"g\", \"abab\"); print gensub(/o/, \"0\", 2, \"foo boo\") }"], &[], "", "baba\nfo0 boo\n", "", 0);
}

#[test]
fn sprintf_formats() {
    check(&["awk", "BEGIN{printf \"%x %u %o %c|%c|%5.2s|%-5d|%+d|%05.1f|%e|%G\\n\", -1, -1, 8, 65, \"hello\", \"abc\", 3, 4, 3.14159, 12345.678, 0.0001}"], &[], "", "ffffffffffffffff 18446744073709551615 10 A|h|   ab|3    |+4|003.1|1.234568e+04|0.0001\n", "", 0);
}

#[test]
fn sprintf_star_and_flags() {
    check(
        &[
            "awk",
            "BEGIN { printf \"%*d|%-*d|%.*f|%#o|%#x|% d|%i|%5.3d\\n\", 5, 42, 4, 7, 2, 3.14159, 8, 255, 5, 42.9, 7 }",
        ],
        &[],
        "",
        "   42|7   |3.14|010|0xff| 5|42|  007\n",
        "",
        0,
    );
}

#[test]
fn printf_g_e() {
    check(&["awk", "BEGIN { printf \"%e|%E|%.0e|%g|%G|%.3g|%#g|%g|%g\\n\", 0, 123.456, 5e10, 1e-10, 1e20, 3.14159, 2, 100000, 1000000 }"], &[], "", "0.000000e+00|1.234560E+02|5e+10|1e-10|1E+20|3.14|2.00000|100000|1e+06\n", "", 0);
}

#[test]
fn printf_strings_as_numbers() {
    check(
        &["awk", "BEGIN{printf \"%d %d %i %s|%d|%f\\n\", \"0x1A\", 1e20, -2.7, \"abc\", \"12abc\", \"3.5xyz\"}"],
        &[],
        "",
        "0 100000000000000000000 -2 abc|12|3.500000\n",
        "",
        0,
    );
}

#[test]
fn printf_char_from_field() {
    check(&["awk", "{printf \"%c|%c\\n\", $1, \"65\"}"], &[], "65\n", "A|6\n", "", 0);
}

#[test]
fn printf_too_few_args() {
    check(&["awk", "BEGIN{printf \"%s %s\\n\", \"a\"}"], &[], "", "", "awk: cmd. line:1: fatal: not enough arguments to satisfy format string\n\t`%s %s\n'\n\t    ^ ran out for this one\n", 2);
}

#[test]
fn delete() {
    check(
        &["awk", "BEGIN { x[\"a\"]=1; delete x[\"a\"]; print length(x); x[1]; x[2]; delete x; print length(x) }"],
        &[],
        "",
        "0\n0\n",
        "",
        0,
    );
}

#[test]
fn multi_dim() {
    check(&["awk", "BEGIN { a[1,2] = 3; for (k in a) { split(k, p, SUBSEP); print p[1], p[2] }; if ((1,2) in a) print \"yes\" }"], &[], "", "1 2\nyes\n", "", 0);
}

#[test]
fn field_assign() {
    check(
        &["awk", "{$2 = \"X\"; print; print NF; $5 = \"e\"; print; NF = 2; print; print NF}"],
        &[],
        "a b c\n",
        "a X c\n3\na X c  e\na X\n2\n",
        "",
        0,
    );
}

#[test]
fn ofs_rebuild() {
    check(&["awk", "BEGIN{OFS=\"-\"}{$1=$1; print}"], &[], "a b c\n", "a-b-c\n", "", 0);
}

#[test]
fn loops() {
    check(&["awk", "BEGIN { i = 0; do { i++ } while (i < 5); print i; for (;;) { if (++j > 3) break }; print j; while (k < 10) { k++; if (k % 2) continue; s = s k }; print s }"], &[], "", "5\n4\n246810\n", "", 0);
}

#[test]
fn next_and_end() {
    check(&["awk", "NR==1{next} {print} END{print \"end\", NR}"], &[], "1\n2\n3\n", "2\n3\nend 3\n", "", 0);
}

#[test]
fn exit_code_runs_end() {
    check(&["awk", "{print; exit 3} END{print \"end\"}"], &[], "1\n2\n", "1\nend\n", "", 3);
}

#[test]
fn exit_in_begin() {
    check(&["awk", "BEGIN { exit 4 } END { print \"end\" }"], &[], "", "end\n", "", 4);
}

#[test]
fn filename_fnr() {
    check(
        &["awk", "{print FILENAME, FNR, NR}", "f1", "f2"],
        &[("f1", "x\ny\n"), ("f2", "z\n")],
        "",
        "f1 1 1\nf1 2 2\nf2 1 3\n",
        "",
        0,
    );
}

#[test]
fn nextfile() {
    check(
        &["awk", "FNR == 1 { print FILENAME } { nextfile }", "f1", "f2"],
        &[("f1", "a\nb\n"), ("f2", "c\nd\n")],
        "",
        "f1\nf2\n",
        "",
        0,
    );
}

#[test]
fn operand_assignment() {
    check(&["awk", "{print v, $0}", "v=1", "f1", "v=2", "f1"], &[("f1", "x\ny\n")], "", "1 x\n1 y\n2 x\n2 y\n", "", 0);
}

#[test]
fn stdin_dash_operand() {
    check(&["awk", "{ print FILENAME, $0 }", "-", "f1"], &[("f1", "file\n")], "in\n", "- in\nf1 file\n", "", 0);
}

#[test]
fn assign_option_escapes() {
    check(&["awk", "-v", "x=a\\tb", "BEGIN{print x}"], &[], "", "a\tb\n", "", 0);
}

#[test]
fn assign_special_vars() {
    check(&["awk", "-v", "OFS=:", "{ $1 = $1; print }"], &[], "a b\nc d\n", "a:b\nc:d\n", "", 0);
}

#[test]
fn getline_file() {
    check(
        &["awk", "BEGIN { while ((getline line < \"f\") > 0) print \"got\", line; print (getline x < \"nope\") }"],
        &[("f", "hi\nthere\n")],
        "",
        "got hi\ngot there\n-1\n",
        "",
        0,
    );
}

#[test]
fn getline_plain() {
    check(&["awk", "NR==1{getline; print \"now\", $0} {print NR, $0}"], &[], "a\nb\nc\n", "now b\n2 b\n3 c\n", "", 0);
}

#[test]
fn getline_var() {
    check(&["awk", "NR==1{getline x; print \"x\", x, $0} END{print NR}"], &[], "a\nb\nc\n", "x b a\n3\n", "", 0);
}

#[test]
fn redirect_and_close() {
    check(&["awk", "BEGIN { print \"x\" > \"out\"; print \"y\" > \"out\"; close(\"out\"); print \"z\" >> \"out\"; while ((getline l < \"out\") > 0) print l; print close(\"out\"), close(\"zzz\") }"], &[], "", "x\ny\n0 -1\n", "", 0);
}

#[test]
fn redirect_stderr() {
    check(
        &["awk", "BEGIN { printf \"%s\\n\", \"a\" > \"/dev/stderr\"; print \"b\" > \"/dev/stdout\" }"],
        &[],
        "",
        "b\n",
        "a\n",
        0,
    );
}

#[test]
fn redirect_bad_dir() {
    check(
        &["awk", "BEGIN { print \"a\" > \"/nonexistent/x\" }"],
        &[],
        "",
        "",
        "awk: cmd. line:1: fatal: cannot redirect to `/nonexistent/x': No such file or directory\n",
        2,
    );
}

#[test]
fn comparisons() {
    check(&["awk", "{ print ($1 > $2), (\"10\" > \"9\"), ($1 == 10) } END { x = \"3.0\"; print (x == 3), 1==1.0, \"a\" < \"b\", 2 < 10, \"2\" < \"10\" }"], &[], "10 9\n", "1 0 1\n0 1 1 1 0\n", "", 0);
}

#[test]
fn strnum_field() {
    check(&["awk", "{ print ($1 == 3) }"], &[], "3.0\n", "1\n", "", 0);
}

#[test]
fn concat_precedence() {
    check(&["awk", "BEGIN { print 1 \" \" 2, 1 -1, \"a\" (1 < 2); print (1)(2) }"], &[], "", "1 2 0 a1\n12\n", "", 0);
}

#[test]
fn incdec_assignops() {
    check(&["awk", "BEGIN { i = 5; print i++ + ++i, i; print i--, --i, i; x = 5; x ^= 2; print x; x %= 7; print x; x /= 2; print x }"], &[], "", "12 7\n7 5 5\n25\n4\n2\n", "", 0);
}

#[test]
fn math() {
    check(
        &[
            "awk",
            "BEGIN { print int(3.9), int(-3.9), sqrt(16), exp(0), log(1), sin(0), cos(0), atan2(0, -1), 10 % 3.5 }",
        ],
        &[],
        "",
        "3 -3 4 1 0 0 1 3.14159 3\n",
        "",
        0,
    );
}

#[test]
fn time_functions() {
    check(
        &["awk", "BEGIN { print strftime(\"%Y-%m-%d %H:%M:%S\", 0); print mktime(\"2020 01 01 00 00 00\") }"],
        &[],
        "",
        "1970-01-01 00:00:00\n1577836800\n",
        "",
        0,
    );
}

#[test]
fn bit_functions() {
    check(
        &["awk", "BEGIN { print and(12, 10), or(12, 10), xor(12, 10), lshift(1, 4), rshift(16, 2) }"],
        &[],
        "",
        "8 14 6 16 4\n",
        "",
        0,
    );
}

#[test]
fn asort_asorti() {
    check(&["awk", "BEGIN { a[\"x\"]=3; a[\"y\"]=1; a[\"z\"]=2; n = asort(a, b); for (i=1;i<=n;i++) print b[i]; n = asorti(a, c); for (i=1;i<=n;i++) print c[i] }"], &[], "", "1\n2\n3\nx\ny\nz\n", "", 0);
}

#[test]
fn srand_deterministic() {
    check(&["awk", "BEGIN { srand(42); a = rand(); srand(42); b = rand(); print (a == b), (a >= 0 && a < 1), srand(7), srand() }"], &[], "", "1 1 42 7\n", "", 0);
}

#[test]
fn multiline_program() {
    check(&["awk", "\n# comment\nBEGIN {\n   x = 1   # trailing\n   if (x)\n      print \"yes\"\n   else\n      print \"no\"\n}"], &[], "", "yes\n", "", 0);
}

#[test]
fn if_else_semicolon() {
    check(&["awk", "BEGIN { if (1) print \"a\"; else print \"b\" }"], &[], "", "a\n", "", 0);
}

#[test]
fn regex_features() {
    check(
        &["awk", "{ print ($0 ~ /^(ab|cd)+$/), ($0 ~ /[[:digit:]]/), ($0 ~ /b{2}/), ($0 ~ \"c$\"), /d/ }"],
        &[],
        "abcd\nabbx\n1cd\n",
        "1 0 0 0 1\n0 0 1 0 0\n0 1 0 0 1\n",
        "",
        0,
    );
}

#[test]
fn dynamic_regex_escape_warning() {
    check(
        &["awk", "BEGIN{print \"\\.\"}"],
        &[],
        "",
        ".\n",
        "awk: cmd. line:1: warning: escape sequence `\\.' treated as plain `.'\n",
        0,
    );
}

#[test]
fn length_forms() {
    check(&["awk", "{ print length, length() } length > 2"], &[], "abc\nde\n", "3 3\nabc\n2 2\n", "", 0);
}

#[test]
fn uninit() {
    check(
        &["awk", "BEGIN { print length(x); print x + 0, \"[\" x \"]\"; if (!(3 in a)) print \"no\" }"],
        &[],
        "",
        "0\n0 []\nno\n",
        "",
        0,
    );
}

#[test]
fn end_keeps_record() {
    check(&["awk", "END { print NR, $0, NF }"], &[], "a\nb c\n", "2 b c 2\n", "", 0);
}

#[test]
fn no_trailing_newline() {
    check(&["awk", "{ print NR\": \"$0 }"], &[], "x\nno newline", "1: x\n2: no newline\n", "", 0);
}

#[test]
fn empty_input() {
    check(&["awk", "{ print \"x\" } END { print NR }"], &[], "", "0\n", "", 0);
}

#[test]
fn argv_argc() {
    check(&["awk", "--", "BEGIN { print ARGC, ARGV[0], ARGV[1], ARGV[2] }", "x", "y"], &[], "", "3 awk x y\n", "", 0);
}

#[test]
fn program_file() {
    check(
        &["awk", "-f", "p.awk", "-f", "q.awk"],
        &[("p.awk", "BEGIN { print \"from p\" }\n"), ("q.awk", "END { print \"from q\", NR }\n")],
        "1\n",
        "from p\nfrom q 1\n",
        "",
        0,
    );
}

#[test]
fn syntax_error() {
    check(
        &["awk", "BEGIN { print 1 +* 2 }"],
        &[],
        "",
        "",
        "awk: cmd. line:1: BEGIN { print 1 +* 2 }\nawk: cmd. line:1:                  ^ syntax error\n",
        1,
    );
}

/// A non-ASCII character where an operator could start is a syntax error, not
/// a cut through the character (found by fuzzing).
#[test]
fn syntax_error_at_a_non_ascii_character() {
    let o = run(&["awk", "BEGIN { x = 1 é= 2 }"], &[], "");
    assert_eq!(o.status, 1);
    assert!(o.err.contains("syntax error"), "{}", o.err);
}

#[test]
fn syntax_error_eof() {
    check(
        &["awk", "BEGIN{print \"a\""],
        &[],
        "",
        "",
        "awk: cmd. line:1: BEGIN{print \"a\"\nawk: cmd. line:1:                ^ unexpected newline or end of string\n",
        1,
    );
}

#[test]
fn syntax_error_newline_line() {
    check(
        &["awk", "BEGIN { x = 1\ny = (2 +\n}"],
        &[],
        "",
        "",
        "awk: cmd. line:3: y = (2 +\nawk: cmd. line:3:         ^ unexpected newline or end of string\n",
        1,
    );
}

#[test]
fn syntax_error_file() {
    check(
        &["awk", "-f", "p.awk"],
        &[("p.awk", "BEGIN { print 1\nx +* 3 }\n")],
        "",
        "",
        "awk: p.awk:2: x +* 3 }\nawk: p.awk:2:    ^ syntax error\n",
        1,
    );
}

#[test]
fn unterminated_string() {
    check(
        &["awk", "BEGIN{print \"a\n}"],
        &[],
        "",
        "",
        "awk: cmd. line:1: BEGIN{print \"a\nawk: cmd. line:1:             ^ unterminated string\n",
        1,
    );
}

#[test]
fn unterminated_regex() {
    check(
        &["awk", "BEGIN{x = /ab[/c"],
        &[],
        "",
        "",
        "awk: cmd. line:1: BEGIN{x = /ab[/c\nawk: cmd. line:1:            ^ unterminated regexp\n",
        1,
    );
}

#[test]
fn builtin_arity() {
    check(&["awk", "BEGIN { print substr(\"abc\") }"], &[], "", "", "awk: cmd. line:1: BEGIN { print substr(\"abc\") }\nawk: cmd. line:1:                           ^ 1 is invalid as number of arguments for substr\n", 1);
}

#[test]
fn division_by_zero_constant() {
    check(
        &["awk", "BEGIN{print \"a\"; print 1/0}"],
        &[],
        "",
        "",
        "awk: cmd. line:1: error: division by zero attempted\n",
        1,
    );
}

#[test]
fn division_by_zero_runtime() {
    check(
        &["awk", "BEGIN{print \"a\"; x=0; print 1/x}"],
        &[],
        "",
        "a\n",
        "awk: cmd. line:1: fatal: division by zero attempted\n",
        2,
    );
}

#[test]
fn modulo_by_zero_runtime() {
    check(
        &["awk", "BEGIN{x=0; print 5%x}"],
        &[],
        "",
        "",
        "awk: cmd. line:1: fatal: division by zero attempted in `%'\n",
        2,
    );
}

#[test]
fn field_negative() {
    check(
        &["awk", "{ print $-1 }"],
        &[],
        "a b\n",
        "",
        "awk: cmd. line:1: (FILENAME=- FNR=1) fatal: attempt to access field -1\n",
        2,
    );
}

#[test]
fn undefined_function() {
    check(&["awk", "BEGIN{f(1)}"], &[], "", "", "awk: cmd. line:1: fatal: function `f' not defined\n", 2);
}

#[test]
fn extra_args_warning() {
    check(
        &["awk", "function f(a) { return a } BEGIN { print f(1, 2) }"],
        &[],
        "",
        "1\n",
        "awk: cmd. line:1: warning: function `f' called with more arguments than declared\n",
        0,
    );
}

#[test]
fn invalid_regex() {
    check(
        &["awk", "BEGIN{x = \"a(\" ; if (\"a\" ~ x) print 1}"],
        &[],
        "",
        "",
        "awk: cmd. line:1: fatal: invalid regexp: Unmatched ( or \\(: /a(/\n",
        2,
    );
}

#[test]
fn array_scalar_misuse() {
    check(
        &["awk", "BEGIN { a[1] = 1; a = 2 }"],
        &[],
        "",
        "",
        "awk: cmd. line:1: fatal: attempt to use array `a' in a scalar context\n",
        2,
    );
}

#[test]
fn missing_file() {
    check(
        &["awk", "{print}", "f1", "nope"],
        &[("f1", "x\n")],
        "",
        "x\n",
        "awk: cmd. line:1: fatal: cannot open file `nope' for reading: No such file or directory\n",
        2,
    );
}

#[test]
fn missing_progfile() {
    check(
        &["awk", "-f", "nope.awk"],
        &[],
        "",
        "",
        "awk: fatal: cannot open source file `nope.awk' for reading: No such file or directory\n",
        2,
    );
}

#[test]
fn directory_operand() {
    check(
        &["awk", "{print}", "d", "f1"],
        &[("d/", ""), ("f1", "x\n")],
        "",
        "x\n",
        "awk: warning: command line argument `d' is a directory: skipped\n",
        0,
    );
}

#[test]
fn bad_v_option() {
    check(&["awk", "-v", "x", "BEGIN{}"], &[], "", "", "awk: `x' argument to `-v' not in `var=value' form\n\nUsage: awk [POSIX or GNU style options] -f progfile [--] file ...\nUsage: awk [POSIX or GNU style options] [--] 'program' file ...\nPOSIX options:\t\tGNU long options: (standard)\n\t-f progfile\t\t--file=progfile\n\t-F fs\t\t\t--field-separator=fs\n\t-v var=val\t\t--assign=var=val\nShort options:\t\tGNU long options: (extensions)\n\t-b\t\t\t--characters-as-bytes\n\t-c\t\t\t--traditional\n\t-C\t\t\t--copyright\n\t-d[file]\t\t--dump-variables[=file]\n\t-D[file]\t\t--debug[=file]\n\t-e 'program-text'\t--source='program-text'\n\t-E file\t\t\t--exec=file\n\t-g\t\t\t--gen-pot\n\t-h\t\t\t--help\n\t-i includefile\t\t--include=includefile\n\t-I\t\t\t--trace\n\t-l library\t\t--load=library\n\t-L[fatal|invalid|no-ext]\t--lint[=fatal|invalid|no-ext]\n\t-M\t\t\t--bignum\n\t-N\t\t\t--use-lc-numeric\n\t-n\t\t\t--non-decimal-data\n\t-o[file]\t\t--pretty-print[=file]\n\t-O\t\t\t--optimize\n\t-p[file]\t\t--profile[=file]\n\t-P\t\t\t--posix\n\t-r\t\t\t--re-interval\n\t-s\t\t\t--no-optimize\n\t-S\t\t\t--sandbox\n\t-t\t\t\t--lint-old\n\t-V\t\t\t--version\n\nTo report bugs, use the `gawkbug' program.\nFor full instructions, see the node `Bugs' in `gawk.info'\nwhich is section `Reporting Problems and Bugs' in the\nprinted version.  This same information may be found at\nhttps://www.gnu.org/software/gawk/manual/html_node/Bugs.html.\nPLEASE do NOT try to report bugs by posting in comp.lang.awk,\nor by using a web forum such as Stack Overflow.\n\ngawk is a pattern scanning and processing language.\nBy default it reads standard input and writes standard output.\n\nExamples:\n\tawk '{ sum += $1 }; END { print sum }' file\n\tawk -F: '{ print $1 }' /etc/passwd\n", 1);
}

#[test]
fn no_program() {
    check(&["awk"], &[], "", "", "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...\nUsage: awk [POSIX or GNU style options] [--] 'program' file ...\nPOSIX options:\t\tGNU long options: (standard)\n\t-f progfile\t\t--file=progfile\n\t-F fs\t\t\t--field-separator=fs\n\t-v var=val\t\t--assign=var=val\nShort options:\t\tGNU long options: (extensions)\n\t-b\t\t\t--characters-as-bytes\n\t-c\t\t\t--traditional\n\t-C\t\t\t--copyright\n\t-d[file]\t\t--dump-variables[=file]\n\t-D[file]\t\t--debug[=file]\n\t-e 'program-text'\t--source='program-text'\n\t-E file\t\t\t--exec=file\n\t-g\t\t\t--gen-pot\n\t-h\t\t\t--help\n\t-i includefile\t\t--include=includefile\n\t-I\t\t\t--trace\n\t-l library\t\t--load=library\n\t-L[fatal|invalid|no-ext]\t--lint[=fatal|invalid|no-ext]\n\t-M\t\t\t--bignum\n\t-N\t\t\t--use-lc-numeric\n\t-n\t\t\t--non-decimal-data\n\t-o[file]\t\t--pretty-print[=file]\n\t-O\t\t\t--optimize\n\t-p[file]\t\t--profile[=file]\n\t-P\t\t\t--posix\n\t-r\t\t\t--re-interval\n\t-s\t\t\t--no-optimize\n\t-S\t\t\t--sandbox\n\t-t\t\t\t--lint-old\n\t-V\t\t\t--version\n\nTo report bugs, use the `gawkbug' program.\nFor full instructions, see the node `Bugs' in `gawk.info'\nwhich is section `Reporting Problems and Bugs' in the\nprinted version.  This same information may be found at\nhttps://www.gnu.org/software/gawk/manual/html_node/Bugs.html.\nPLEASE do NOT try to report bugs by posting in comp.lang.awk,\nor by using a web forum such as Stack Overflow.\n\ngawk is a pattern scanning and processing language.\nBy default it reads standard input and writes standard output.\n\nExamples:\n\tawk '{ sum += $1 }; END { print sum }' file\n\tawk -F: '{ print $1 }' /etc/passwd\n", 1);
}

#[test]
fn bad_option() {
    check(&["awk", "-Q", "BEGIN{}"], &[], "", "", "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...\nUsage: awk [POSIX or GNU style options] [--] 'program' file ...\nPOSIX options:\t\tGNU long options: (standard)\n\t-f progfile\t\t--file=progfile\n\t-F fs\t\t\t--field-separator=fs\n\t-v var=val\t\t--assign=var=val\nShort options:\t\tGNU long options: (extensions)\n\t-b\t\t\t--characters-as-bytes\n\t-c\t\t\t--traditional\n\t-C\t\t\t--copyright\n\t-d[file]\t\t--dump-variables[=file]\n\t-D[file]\t\t--debug[=file]\n\t-e 'program-text'\t--source='program-text'\n\t-E file\t\t\t--exec=file\n\t-g\t\t\t--gen-pot\n\t-h\t\t\t--help\n\t-i includefile\t\t--include=includefile\n\t-I\t\t\t--trace\n\t-l library\t\t--load=library\n\t-L[fatal|invalid|no-ext]\t--lint[=fatal|invalid|no-ext]\n\t-M\t\t\t--bignum\n\t-N\t\t\t--use-lc-numeric\n\t-n\t\t\t--non-decimal-data\n\t-o[file]\t\t--pretty-print[=file]\n\t-O\t\t\t--optimize\n\t-p[file]\t\t--profile[=file]\n\t-P\t\t\t--posix\n\t-r\t\t\t--re-interval\n\t-s\t\t\t--no-optimize\n\t-S\t\t\t--sandbox\n\t-t\t\t\t--lint-old\n\t-V\t\t\t--version\n\nTo report bugs, use the `gawkbug' program.\nFor full instructions, see the node `Bugs' in `gawk.info'\nwhich is section `Reporting Problems and Bugs' in the\nprinted version.  This same information may be found at\nhttps://www.gnu.org/software/gawk/manual/html_node/Bugs.html.\nPLEASE do NOT try to report bugs by posting in comp.lang.awk,\nor by using a web forum such as Stack Overflow.\n\ngawk is a pattern scanning and processing language.\nBy default it reads standard input and writes standard output.\n\nExamples:\n\tawk '{ sum += $1 }; END { print sum }' file\n\tawk -F: '{ print $1 }' /etc/passwd\n", 1);
}

/// Input for the lazy-field tests: numbers in several spellings, a blank
/// line, leading/trailing blanks.
const MIXED: &str = "a 1\nb 2.5\n b  3e1 \n\nb 0x10\nc -0.125 +7\n";

#[test]
fn field_numbers_summed() {
    check(&["awk", "{s += $2; t -= $(1+1)} END {print s, t}"], &[], MIXED, "33.375 -33.375\n", "", 0);
    check(
        &["awk", "{ x = $2; print x == \"1\", x + 0, $2 * 2 }"],
        &[],
        MIXED,
        "1 1 2\n0 2.5 5\n0 30 60\n0 0 0\n0 0 0\n0 -0.125 -0.25\n",
        "",
        0,
    );
}

#[test]
fn field_against_string_constant() {
    let prog = "$1 == \"b\" {n++} $9 == \"\" {e++} $0 == \"\" {z++} $2 < \"2\" {l++} END {print n, e, z, l}";
    check(&["awk", prog], &[], MIXED, "3 6 1 4\n", "", 0);
}

#[test]
fn field_assignment_after_reading() {
    check(
        &["awk", "{ $3 = \"x\"; print; print NF; print ($3 == \"x\") }"],
        &[],
        "a 1\n\nc -0.125 +7\n",
        "a 1 x\n3\n1\n  x\n3\n1\nc -0.125 x\n3\n1\n",
        "",
        0,
    );
    check(
        &["awk", "{ $2 = $2 + 1; print $2 == \"2\", $0 }"],
        &[],
        MIXED,
        "1 a 2\n0 b 3.5\n0 b 31\n0  1\n0 b 1\n0 c 0.875 +7\n",
        "",
        0,
    );
    check(&["awk", "{ NF = 1; print $0 \"|\" ($1 == \"a\") }"], &[], MIXED, "a|1\nb|0\nb|0\n|0\nb|0\nc|0\n", "", 0);
}

#[test]
fn fs_change_applies_to_next_record_lazily() {
    check(&["awk", "NR==1 { FS = \".\" } { print $1 }"], &[], MIXED, "a\nb 2\n b  3e1 \n\nb 0x10\nc -0\n", "", 0);
}

#[test]
fn rt_follows_each_terminator() {
    check(
        &["awk", "BEGIN{RS=\"[0-9]+\"} {print $0, RT, length(RT)}"],
        &[],
        "a1b22c333",
        "a 1 1\nb 22 2\nc 333 3\n",
        "",
        0,
    );
}
