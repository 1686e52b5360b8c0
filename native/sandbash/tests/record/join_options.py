"""join's option lists as GNU coreutils reads them: `-o` lists written as
several operands (`join -o 1.1 1.2 2.1 a b`, the earliest taken first when
there are more than two), comma and blank separated lists, `0`, `auto`,
`-e` for missing fields, `--header`, and the messages for bad field specs
and extra operands."""

tools("join")

FILES = r"""printf 'a 1\nb 2\nd 4\n' > x; printf 'a A\nc C\nd D\n' > y; printf 'k v\na 1\nb 2\n' > hx; printf 'k w\na A\nc C\n' > hy
"""

def j(name, *cmds):
    e(name, FILES + "; ".join(f"echo '== {c}'; join {c}; echo \"rc=$?\"" for c in cmds))

group("-o lists")
j("lists_as_several_operands", "-o 1.1 1.2 2.2 x y", "-o1.1 1.2 x y", "--output=1.1 2.2 x y", "x -o 1.1 1.2 y", "-a 1 -o 1.1 1.2 x y")
j("operands_that_cannot_be_lists", "-o 1.1 2.2 x y z", "-o 1.1 x 2.2 y", "-o 1.1 -- 1.2 x y", "-o 1.1 -e X 2.2 x y", "-o auto 1.1 x y", "x y z")
j("list_forms", "-o 1.1,2.2 x y", "-o '1.2 2.2' -a1 -e NONE x y", "-a1 -a2 -e X -o 0,1.2,2.2 x y", "-o auto -a1 -e - x y", "-v2 -o 2.1 x y")
j("bad_field_specs", "-o 3.1 x y", "-o 1.0 x y", "-o 1x x y", "-o 01 x y", "-o a x y", "-o 2. x y", "-o 1.a x y")

group("Headers and missing fields")
j("header_lines", "--header hx hy", "--header -a1 hx hy", "--header -o 0,2.2 -a2 -e '?' hx hy")
j("empty_fields", "-e X x y", "-a1 -e X -o 1.1,2.2 x y", "-a2 -e '' -o 1.2,2.2 x y")
