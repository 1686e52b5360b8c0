//! Every expected value below was printed by jq 1.7.1 (built from its release
//! tarball) run with an empty environment in a scratch directory holding the
//! same files; none was written from what this implementation prints.

use crate::commands::util::testutil::check;

#[test]
fn pretty_and_compact() {
    check(
        &["jq", "."],
        &[],
        "{\"a\":[1,{\"b\":\"x\"}],\"c\":{},\"d\":[]}",
        "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"x\"\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}\n",
        "",
        0,
    );
    check(
        &["jq", "-c", "."],
        &[],
        "{\"a\":[1,{\"b\":\"x\"}],\"c\":{},\"d\":[]}",
        "{\"a\":[1,{\"b\":\"x\"}],\"c\":{},\"d\":[]}\n",
        "",
        0,
    );
    check(
        &["jq", "-S", "."],
        &[],
        "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}",
        "{\n  \"a\": {\n    \"c\": 2,\n    \"d\": 1\n  },\n  \"b\": 1\n}\n",
        "",
        0,
    );
    check(&["jq", "--tab", "."], &[], "{\"a\":[1]}", "{\n\t\"a\": [\n\t\t1\n\t]\n}\n", "", 0);
    check(&["jq", "--indent", "1", "."], &[], "{\"a\":[1]}", "{\n \"a\": [\n  1\n ]\n}\n", "", 0);
    check(&["jq", "--indent", "0", "."], &[], "{\"a\":[1]}", "{\"a\":[1]}\n", "", 0);
    check(
        &["jq", "-a", "-c", "."],
        &[],
        "[\"héllo😀\\u0001\\u007f\"]",
        "[\"h\\u00e9llo\\ud83d\\ude00\\u0001\\u007f\"]\n",
        "",
        0,
    );
    check(&["jq", "-c", "."], &[], "1 \"a\" [] {} null true", "1\n\"a\"\n[]\n{}\nnull\ntrue\n", "", 0);
}

#[test]
fn numbers() {
    check(
        &["jq", "-c", "."],
        &[],
        "[1.0, 1.10, 1e2, 100, 0.00001, 1e-7, -0, 1e1000, 12345678901234567890]",
        "[1.0,1.10,1E+2,100,0.00001,1E-7,-0,1E+1000,12345678901234567890]\n",
        "",
        0,
    );
    check(
        &["jq", "-c", "map(.+0)"],
        &[],
        "[1.0, 1.10, 1e2, 100, 0.00001, 1e-7, -0, 1e1000, 12345678901234567890]",
        "[1,1.1,100,100,1e-05,1e-07,0,1.7976931348623157e+308,12345678901234567000]\n",
        "",
        0,
    );
    check(&["jq", "-c", "map(tostring)"], &[], "[1.0, 1e1000, 3]", "[\"1.0\",\"1E+1000\",\"3\"]\n", "", 0);
    check(&["jq", "-nc", "[1e15, 1e16, 123e15, 0.0001, 0.00001, 1.5e300, 123456789012345678, 0.1+0.2, 1/3, 3.0, 1e17] | map(.*1)"], &[], "", "[1000000000000000,1e+16,123000000000000000,0.0001,1e-05,1.5e+300,123456789012345680,0.30000000000000004,0.3333333333333333,3,1e+17]\n", "", 0);
    check(
        &["jq", "-nc", "[nan, infinite, -infinite]"],
        &[],
        "",
        "[null,1.7976931348623157e+308,-1.7976931348623157e+308]\n",
        "",
        0,
    );
    check(&["jq", "-n", "5 % -2, -5 % 2, 5.9 % 2.1"], &[], "", "1\n-1\n1\n", "", 0);
}

#[test]
fn raw_and_join() {
    check(&["jq", "-r", ".[]"], &[], "[\"a\",\"b\",1,null]", "a\nb\n1\nnull\n", "", 0);
    check(&["jq", "-j", ".[]"], &[], "[\"a\",\"b\",1]", "ab1", "", 0);
    check(&["jq", "-r", ".[]|@tsv"], &[], "[[\"a\",1],[\"b\\tc\",null]]", "a\t1\nb\\tc\t\n", "", 0);
    check(&["jq", "-r", ".[]|@csv"], &[], "[[\"a\\\"q\",1,true],[\"x\",null]]", "\"a\"\"q\",1,true\n\"x\",\n", "", 0);
    check(&["jq", "-r", "@sh, @html, @uri, @base64, (@base64|@base64d), @json"], &[], "\"it's <&> ü/?\"", "'it'\\''s <&> ü/?'\nit&apos;s &lt;&amp;&gt; ü/?\nit%27s%20%3C%26%3E%20%C3%BC%2F%3F\naXQncyA8Jj4gw7wvPw==\nit's <&> ü/?\n\"it's <&> ü/?\"\n", "", 0);
}

#[test]
fn input_modes() {
    check(&["jq", "-s", "-c", "."], &[], "1 2\n3", "[1,2,3]\n", "", 0);
    check(&["jq", "-R", "."], &[], "a\nb\nc", "\"a\"\n\"b\"\n\"c\"\n", "", 0);
    check(&["jq", "-Rs", "."], &[], "a\nb\n", "\"a\\nb\\n\"\n", "", 0);
    check(&["jq", "-n", "-c", "[inputs]"], &[], "1 2 3", "[1,2,3]\n", "", 0);
    check(&["jq", "-c", "[., input]"], &[], "1 2 3 4", "[1,2]\n[3,4]\n", "", 0);
    check(&["jq", "-s", "."], &[], "", "[]\n", "", 0);
    check(&["jq", "."], &[], "", "", "", 0);
}

#[test]
fn exit_status() {
    check(&["jq", "-e", "."], &[], "null", "null\n", "", 1);
    check(&["jq", "-e", "."], &[], "false", "false\n", "", 1);
    check(&["jq", "-e", "."], &[], "1", "1\n", "", 0);
    check(&["jq", "-e", "empty"], &[], "1", "", "", 4);
    check(&["jq", "-e", ".[]"], &[], "[1,null]", "1\nnull\n", "", 1);
}

#[test]
fn args_and_env() {
    check(
        &["jq", "-n", "-c", "--arg", "a", "1", "--argjson", "b", "{\"x\":[2]}", "[$a, $b.x[0], $ARGS.named]"],
        &[],
        "",
        "[\"1\",2,{\"a\":\"1\",\"b\":{\"x\":[2]}}]\n",
        "",
        0,
    );
    check(
        &["jq", "-n", "-c", "$ARGS", "--args", "a", "b"],
        &[],
        "",
        "{\"positional\":[\"a\",\"b\"],\"named\":{}}\n",
        "",
        0,
    );
    check(&["jq", "-n", "-c", "$ARGS.positional", "--jsonargs", "1", "{\"a\":2}"], &[], "", "[1,{\"a\":2}]\n", "", 0);
    check(
        &["jq", "-n", "-c", "--slurpfile", "s", "f.json", "--rawfile", "r", "t.txt", "$s, $r"],
        &[("f.json", "{\"a\":1}\n[2]"), ("t.txt", "hi\n")],
        "",
        "[{\"a\":1},[2]]\n\"hi\\n\"\n",
        "",
        0,
    );
    check(&["jq", "-n", "--argjson", "a", "{bad", "$a"], &[], "", "", "jq: invalid JSON text passed to --argjson\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n", 2);
    check(
        &["jq", "-n", "$x"],
        &[],
        "",
        "",
        "jq: error: $x is not defined at <top-level>, line 1:\n$x\njq: 1 compile error\n",
        3,
    );
}

#[test]
fn files() {
    check(
        &["jq", "-c", ".", "f.json", "g.json"],
        &[("f.json", "[1,2]"), ("g.json", "{\"a\":3}\n")],
        "",
        "[1,2]\n{\"a\":3}\n",
        "",
        0,
    );
    check(
        &["jq", "-c", ".", "f.json", "nope.json"],
        &[("f.json", "[1,2]")],
        "",
        "[1,2]\n",
        "jq: error: Could not open file nope.json: No such file or directory\n",
        2,
    );
    check(&["jq", "-c", "input_filename", "f.json"], &[("f.json", "[1,2]")], "", "\"f.json\"\n", "", 0);
    check(&["jq", "-f", "p.jq", "i.json"], &[("p.jq", ".a"), ("i.json", "{\"a\":6}")], "", "6\n", "", 0);
    check(
        &["jq", ".a.b", "f.json"],
        &[("f.json", "{\"a\":1}")],
        "",
        "",
        "jq: error (at f.json:0): Cannot index number with string \"b\"\n",
        5,
    );
}

#[test]
fn runtime_errors() {
    check(&["jq", ".a.b"], &[], "{\"a\":1}\n{\"a\":2}\n\n\n3\n", "", "jq: error (at <stdin>:1): Cannot index number with string \"b\"\njq: error (at <stdin>:2): Cannot index number with string \"b\"\njq: error (at <stdin>:5): Cannot index number with string \"a\"\n", 5);
    check(&["jq", ".[]"], &[], "5", "", "jq: error (at <stdin>:0): Cannot iterate over number (5)\n", 5);
    check(
        &["jq", ".a + \"x\""],
        &[],
        "{\"a\":1}",
        "",
        "jq: error (at <stdin>:0): number (1) and string (\"x\") cannot be added\n",
        5,
    );
    check(&["jq", "-n", "{} | .[0]"], &[], "", "", "jq: error (at <unknown>): Cannot index object with number\n", 5);
    check(&["jq", "-n", "error(\"x\")"], &[], "", "", "jq: error (at <unknown>): x\n", 5);
    check(&["jq", "-n", "error({\"a\":1})"], &[], "", "", "jq: error (at <unknown>) (not a string): {\"a\":1}\n", 5);
    check(
        &["jq", "-n", "\"abcdefghijklmnopqrstuvwxyz\" | .[]"],
        &[],
        "",
        "",
        "jq: error (at <unknown>): Cannot iterate over string (\"abcdefghij...)\n",
        5,
    );
    check(
        &["jq", "-n", "1 / 0"],
        &[],
        "",
        "",
        "jq: error (at <unknown>): number (1) and number (0) cannot be divided because the divisor is zero\n",
        5,
    );
    check(&["jq", "-n", "true | length"], &[], "", "", "jq: error (at <unknown>): boolean (true) has no length\n", 5);
    check(&["jq", "-n", "input"], &[], "", "", "jq: error (at <stdin>:0): break\n", 5);
}

#[test]
fn parse_errors() {
    check(&["jq", "."], &[], "{\"a\":1", "", "jq: parse error: Unfinished JSON term at EOF at line 1, column 6\n", 5);
    check(
        &["jq", "-c", "."],
        &[],
        "{\"a\":1}\n{\"a\":}\n",
        "{\"a\":1}\n",
        "jq: parse error: Unmatched '}' at line 2, column 6\n",
        5,
    );
    check(&["jq", "."], &[], "nul", "", "jq: parse error: Invalid literal at EOF at line 1, column 3\n", 5);
    check(&["jq", "-c", "."], &[], "[1,2]\n]", "[1,2]\n", "jq: parse error: Unmatched ']' at line 2, column 1\n", 5);
    check(&["jq", "."], &[], "\"abc", "", "jq: parse error: Unfinished string at EOF at line 1, column 4\n", 5);
    check(
        &["jq", "."],
        &[],
        "{\"a\"}",
        "",
        "jq: parse error: Objects must consist of key:value pairs at line 1, column 5\n",
        5,
    );
    check(&["jq", "."], &[], "[1,]", "", "jq: parse error: Expected another array element at line 1, column 4\n", 5);
    check(&["jq", "."], &[], "{1:2}", "", "jq: parse error: Object keys must be strings at line 1, column 3\n", 5);
    check(&["jq", "."], &[], "abc\n", "", "jq: parse error: Invalid numeric literal at line 2, column 0\n", 5);
    check(&["jq", "-c", "."], &[], "+1 .5 1. -0 01", "1\n0.5\n1\n-0\n1\n", "", 0);
    check(&["jq", "-c", "length"], &[], "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "", "jq: parse error: Exceeds depth limit for parsing at line 1, column 257\n", 5);
    check(&["jq", "-c", "length"], &[], "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "1\n", "", 0);
}

#[test]
fn compile_errors() {
    check(&["jq", ".a["], &[], "1", "", "jq: error: syntax error, unexpected end of file (Unix shell quoting issues?) at <top-level>, line 1:\n.a[  \njq: 1 compile error\n", 3);
    check(
        &["jq", "foo"],
        &[],
        "1",
        "",
        "jq: error: foo/0 is not defined at <top-level>, line 1:\nfoo\njq: 1 compile error\n",
        3,
    );
    check(&["jq", "-n", "$__loc__"], &[], "", "{\n  \"file\": \"<top-level>\",\n  \"line\": 1\n}\n", "", 0);
}

#[test]
fn options() {
    check(&["jq", "-x", "."], &[], "", "", "jq: Unknown option -x\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n", 2);
    check(&["jq", "--foo", "."], &[], "", "", "jq: Unknown option --foo\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n", 2);
    check(&["jq", "--version"], &[], "", "jq-1.7.1\n", "", 0);
    check(&["jq", "-n", "-1 | length"], &[], "", "1\n", "", 0);
    check(&["jq"], &[], "{\"a\":1}", "{\n  \"a\": 1\n}\n", "", 0);
}

#[test]
fn regex() {
    check(&["jq", "-c", "[match(\"(a)(x)?\"; \"g\")], [match(\"(?<l>a)(?<m>x)?\") | .captures[] | .name], test(\"\\\\p{L}\"), [match(\"\";\"g\") | .offset]"], &[], "\"abc\"", "[{\"offset\":0,\"length\":1,\"string\":\"a\",\"captures\":[{\"offset\":0,\"length\":1,\"string\":\"a\",\"name\":null},{\"offset\":-1,\"string\":null,\"length\":0,\"name\":null}]}]\n[\"l\",\"m\"]\ntrue\n[0,1,2,3]\n", "", 0);
    check(&["jq", "-c", "sub(\"(?<x>b)\"; \"[\\(.x)]\"), gsub(\"[ac]\"; \"-\"), gsub(\"\"; \"-\"), [splits(\"b\")], split(\"B\"; \"i\"), [scan(\"(a)(b)\")], capture(\"(?<y>c)\")"], &[], "\"abc\"", "\"a[b]c\"\n\"-b-\"\n\"-a-b-c-\"\n[\"a\",\"c\"]\n[\"a\",\"c\"]\n[[\"a\",\"b\"]]\n{\"y\":\"c\"}\n", "", 0);
    check(&["jq", "-c", "test(1)"], &[], "\"a\"", "", "jq: error (at <stdin>:0): number not a string or array\n", 5);
    check(
        &["jq", "-c", "test(\"a\")"],
        &[],
        "null",
        "",
        "jq: error (at <stdin>:0): null (null) cannot be matched, as it is not a string\n",
        5,
    );
}

#[test]
fn stream_and_slurp() {
    check(
        &["jq", "--stream", "-c", "."],
        &[],
        "{\"a\":[1,{\"b\":2}],\"c\":3} [] 3",
        "[[\"a\",0],1]\n[[\"a\",1,\"b\"],2]\n[[\"a\",1,\"b\"]]\n[[\"a\",1]]\n[[\"c\"],3]\n[[\"c\"]]\n[[],[]]\n[[],3]\n",
        "",
        0,
    );
    check(&["jq", "-ns", "-c", "[inputs]"], &[], "1 2", "[[1,2]]\n", "", 0);
    check(&["jq", "-nR", "-c", "[inputs]"], &[], "a\nb\n", "[\"a\",\"b\"]\n", "", 0);
    check(&["jq", "-cS", "--tab", "."], &[], "{\"b\":1,\"a\":2}", "{\n\t\"a\": 2,\n\t\"b\": 1\n}\n", "", 0);
    check(&["jq", "--tab", "-c", "."], &[], "{\"b\":1,\"a\":2}", "{\"b\":1,\"a\":2}\n", "", 0);
    check(&["jq", "if . == 1 then error(\"x\") else . end"], &[], "1 2", "2\n", "jq: error (at <stdin>:0): x\n", 0);
    check(&["jq", "if . == 2 then error(\"x\") else . end"], &[], "1 2", "1\n", "jq: error (at <stdin>:0): x\n", 5);
    check(&["jq", "-e", "if . == 1 then . else empty end"], &[], "1 2", "1\n", "", 0);
}

#[test]
fn filters() {
    check(
        &["jq", "-c", "[.[] | select(. > 1)], map(.*2), add, length, (sort|reverse), min, max, unique"],
        &[],
        "[3,1,2,3]",
        "[3,2,3]\n[6,2,4,6]\n9\n4\n[3,3,2,1]\n1\n3\n[1,2,3]\n",
        "",
        0,
    );
    check(&["jq", "-c", "keys, keys_unsorted, to_entries, with_entries(.value += 1), has(\"a\"), del(.a)"], &[], "{\"b\":2,\"a\":1}", "[\"a\",\"b\"]\n[\"b\",\"a\"]\n[{\"key\":\"b\",\"value\":2},{\"key\":\"a\",\"value\":1}]\n{\"b\":3,\"a\":2}\ntrue\n{\"b\":2}\n", "", 0);
    check(&["jq", "-c", "sort_by(.n), group_by(.k), min_by(.n), max_by(.n), unique_by(.k)"], &[], "[{\"k\":\"a\",\"n\":2},{\"k\":\"b\",\"n\":1},{\"k\":\"a\",\"n\":3}]", "[{\"k\":\"b\",\"n\":1},{\"k\":\"a\",\"n\":2},{\"k\":\"a\",\"n\":3}]\n[[{\"k\":\"a\",\"n\":2},{\"k\":\"a\",\"n\":3}],[{\"k\":\"b\",\"n\":1}]]\n{\"k\":\"b\",\"n\":1}\n{\"k\":\"a\",\"n\":3}\n[{\"k\":\"a\",\"n\":2},{\"k\":\"b\",\"n\":1}]\n", "", 0);
    check(
        &[
            "jq",
            "-c",
            "[paths], getpath([\"a\",\"b\"]), setpath([\"a\",\"c\"]; 2), delpaths([[\"a\",\"b\"]]), [.. | numbers]",
        ],
        &[],
        "{\"a\":{\"b\":1}}",
        "[[\"a\"],[\"a\",\"b\"]]\n1\n{\"a\":{\"b\":1,\"c\":2}}\n{\"a\":{}}\n[1]\n",
        "",
        0,
    );
    check(
        &["jq", "-c", "del(.[0,2]), del(..|nulls), to_entries[0]"],
        &[],
        "[1,null,3,[null]]",
        "[null,[null]]\n[1,3,[]]\n{\"key\":0,\"value\":1}\n",
        "",
        0,
    );
    check(&["jq", "-c", "split(\",\"), (split(\",\") | join(\"-\")), test(\"B\"; \"i\"), [match(\"[a-c]\"; \"g\").offset], sub(\"b\"; \"X\"), gsub(\"[ac]\"; \"_\"), capture(\"(?<x>b)\"), [scan(\"[abc]\")], ascii_upcase, ltrimstr(\"a,\"), rtrimstr(\",c\"), length, explode"], &[], "\"a,b,c\"", "[\"a\",\"b\",\"c\"]\n\"a-b-c\"\ntrue\n[0,2,4]\n\"a,X,c\"\n\"_,b,_\"\n{\"x\":\"b\"}\n[\"a\",\"b\",\"c\"]\n\"A,B,C\"\n\"b,c\"\n\"a,b\"\n5\n[97,44,98,44,99]\n", "", 0);
    check(&["jq", "-c", "tostring, tojson, (tojson|fromjson), (\"1.50\"|tonumber), (\"abc\"|try tonumber catch .)"], &[], "{\"a\":[1,2]}", "\"{\\\"a\\\":[1,2]}\"\n\"{\\\"a\\\":[1,2]}\"\n{\"a\":[1,2]}\n1.50\n\"Invalid numeric literal at EOF at line 1, column 3 (while parsing 'abc')\"\n", "", 0);
    check(&["jq", "-c", "reduce .[] as $x (0; . + $x), [foreach .[] as $x (0; . + $x)], [limit(2; .[])], first, last, [range(1;10;3)], any(. > 2), all(. > 0)"], &[], "[1,2,3]", "6\n[1,3,6]\n[1,2]\n1\n3\n[1,4,7]\ntrue\ntrue\n", "", 0);
    check(
        &[
            "jq",
            "-c",
            "flatten, flatten(1), walk(if type == \"number\" then . * 10 else . end), [tostream], fromstream(tostream)",
        ],
        &[],
        "[1,[2,[3]]]",
        "[1,2,3]\n[1,2,[3]]\n[10,[20,[30]]]\n[[[0],1],[[1,0],2],[[1,1,0],3],[[1,1,0]],[[1,1]],[[1]]]\n[1,[2,[3]]]\n",
        "",
        0,
    );
    check(
        &[
            "jq",
            "-c",
            "try error(\"x\") catch ., (.a // \"d\"), (label $out | 1, break $out), [.[]?], (if . then 1 else 2 end)",
        ],
        &[],
        "null",
        "\"x\"\n\"d\"\n1\n[]\n2\n",
        "",
        0,
    );
    check(
        &["jq", "-c", "\"\\(.a) is \\(.a | length)\", @text \"v=\\(.a)\", @json \"v=\\(.a)\""],
        &[],
        "{\"a\":\"xy\"}",
        "\"xy is 2\"\n\"v=xy\"\n\"v=\\\"xy\\\"\"\n",
        "",
        0,
    );
    check(&["jq", "-c", "contains({\"a\":[1]}), ({\"a\":[1]} | inside({\"a\":[1,2]})), (.a | index(2)), (.a | indices(1)), (\"a,b, c\" | index(\", \"))"], &[], "{\"a\":[1,2,1]}", "true\ntrue\n1\n[0,2]\n3\n", "", 0);
    check(
        &["jq", "-c", "todate, (todate | fromdate), strftime(\"%Y-%m-%d %H:%M:%S %a %j\"), gmtime, (gmtime | mktime)"],
        &[],
        "1425599507",
        "\"2015-03-05T23:51:47Z\"\n1425599507\n\"2015-03-05 23:51:47 Thu 064\"\n[2015,2,5,23,51,47,4,63]\n1425599507\n",
        "",
        0,
    );
    check(&["jq", "-c", "env.FOO, $ENV.FOO, (env | type)"], &[], "null", "null\nnull\n\"object\"\n", "", 0);
    check(&["jq", "-c", ".a.b |= . + 1, (.a += {\"c\": 3}), (.x.y = 1), (.l[2] = 1), ([1] | .[-3] = 5)?"], &[], "{\"a\":{\"b\":2}}", "{\"a\":{\"b\":3}}\n{\"a\":{\"b\":2,\"c\":3}}\n{\"a\":{\"b\":2},\"x\":{\"y\":1}}\n{\"a\":{\"b\":2},\"l\":[null,null,1]}\n", "", 0);
    check(&["jq", "-c", "[limit(0; 1, 2)], [limit(-1; 1, 2)], [limit(3; repeat(1))], isempty(empty), [splits(\", *\")], (\"x\" * 3), (\"x\" * 0)"], &[], "\"a, b,c\"", "[]\n[1,2]\n[1,1,1]\ntrue\n[\"a\",\"b\",\"c\"]\n\"xxx\"\n\"\"\n", "", 0);
}

/// Through the shell: pipes, the shell's exported variables (not the host's),
/// files from the sandbox's filesystem, and a reader that closes early.
/// Expected output from bash 5.2 running jq 1.7.1 on the same scripts.
#[test]
fn through_the_shell() {
    let run = |script: &str| -> (String, i32) {
        crate::commands::util::testutil::block_on(async {
            let mut bash = crate::Bash::builder().build().expect("sandbox");
            let r = bash.exec(script).await.expect("exec");
            (String::from_utf8_lossy(&r.stdout).into_owned(), r.exit_code)
        })
    };
    assert_eq!(run(r#"echo '{"a":[1,2]}' | jq -c '.a|map(.*2)'"#), ("[2,4]\n".into(), 0));
    assert_eq!(run(r#"echo '[["a",1],["b",2]]' | jq -r '.[]|@tsv'"#), ("a\t1\nb\t2\n".into(), 0));
    assert_eq!(run(r#"export FOO=bar; X=hidden; jq -n -c '[env.FOO, $ENV.X]'"#), ("[\"bar\",null]\n".into(), 0));
    assert_eq!(
        run(r#"cd /tmp; printf '{"a":1}' > f.json; jq .a f.json; jq -n 'input' f.json"#),
        ("1\n{\n  \"a\": 1\n}\n".into(), 0)
    );
    assert_eq!(run(r#"yes '{"a":1}' | jq -c .a | head -n 2"#), ("1\n1\n".into(), 0));
}

/// Programs that would run away are stopped by the exec's limits: time,
/// the size of what they build, nesting, recursion.
#[test]
fn runaway_programs_are_stopped() {
    use crate::commands::util::testutil::{make_fs, run_full};
    use crate::limits::Limits;
    let fs = make_fs(&[]);
    let limits = Limits { timeout_ms: 1500, max_string_bytes: 100_000, ..Limits::default() };
    let cases: &[(&str, &str)] = &[
        ("last(repeat(1))", "jq: error: time limit exceeded (timeout_ms)\n"),
        ("[range(1e9)] | length", "jq: error: array too large (max_string_bytes)\n"),
        ("\"x\" * 1e9 | length", "jq: error: string too large (max_string_bytes)\n"),
        ("def f: 1 + f; f", "jq: error: program recursion too deep\n"),
        ("reduce range(100000) as $i (null; [.]) | length", "jq: error: value nesting exceeds 10000\n"),
    ];
    for (prog, err) in cases {
        let started = std::time::Instant::now();
        let got = run_full(&fs, &["jq", "-n", prog], b"", &[], limits.clone());
        assert_eq!((got.out.as_str(), got.err.as_str(), got.status), ("", *err, 5), "{prog}");
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "{prog} took too long");
    }
    // Deep input is refused by the parser at jq's limit, not by the stack.
    let deep = "[".repeat(100_000);
    let got = run_full(&fs, &["jq", "."], deep.as_bytes(), &[], limits);
    assert_eq!(got.err, "jq: parse error: Exceeds depth limit for parsing at line 1, column 257\n");
    assert_eq!(got.status, 5);
}

/// Strings are read a run of plain bytes at a time: escapes inside and after
/// long runs, and the error position after them (the position was checked
/// with the host's jq 1.6; prefix and status as in the tests above).
#[test]
fn string_runs_and_positions() {
    check(&["jq", "-c", "."], &[], "\"ab\\\\cd\" \"e\\tf\"", "\"ab\\\\cd\"\n\"e\\tf\"\n", "", 0);
    let long = "{\"a\":\"long plain text \\u00e9 \\\"q\\\" end\", \"b\": [1,\n\"x\"]}";
    check(&["jq", "-c", "."], &[], long, "{\"a\":\"long plain text é \\\"q\\\" end\",\"b\":[1,\"x\"]}\n", "", 0);
    let bad = "{\"a\":\"long plain text \\u00e9 \\\"q\\\" end\", \"b\": [1,\n\"x\" x]}";
    check(&["jq", "-c", "."], &[], bad, "", "jq: parse error: Invalid numeric literal at line 2, column 6\n", 5);
}

// Bounds of this implementation (no jq 1.7 output to compare: jq itself
// crashes or runs out of memory on these).

#[test]
fn recursion_without_values_is_stopped_by_the_stack_guard() {
    check(&["jq", "-n", "def f: [f]; f"], &[], "", "", "jq: error: program recursion too deep\n", 5);
}

#[test]
fn nested_definitions_count_as_nesting() {
    let n = 1500;
    let prog = format!("{}1{}", "def f: ".repeat(n), ";1".repeat(n));
    let got = crate::commands::util::testutil::run(&["jq", "-n", &prog], &[], "");
    assert_eq!(got.status, 3, "{:?}", got.err.get(..200));
    assert!(got.err.starts_with("jq: error: program nested too deeply"), "{:?}", got.err.get(..200));
    // Many definitions side by side, strings with interpolations and
    // brackets in comments are not nesting.
    let flat = format!("{}\"\\(1)\\(2)\" # ((((\n", "def f: 1; ".repeat(1500));
    check(&["jq", "-n", &flat], &[], "", "\"12\"\n", "", 0);
    check(&["jq", "-nc", "def f(a; b): [a, b]; f(1; \"x)\\(2)\")"], &[], "", "[1,\"x)2\"]\n", "", 0);
}
