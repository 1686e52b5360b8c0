"""xargs's option combinations as GNU findutils reads them: the last of
`-I`/`-i`, `-L`/`-l` and `-n` wins with GNU's warning (but `-n 1` after
`-I`), the short options whose argument is optional (`-i[R]`, `-l[N]`,
`-e[EOF]`) clustered with others (`-0i`, `-rn1`), and their long forms."""

tools("xargs", "echo")

INPUT = r"""printf 'a b\nc\nX\nd\n' > in
"""

def x(name, *arg_sets):
    e(name, INPUT + "; ".join(f"echo '== {a}'; xargs {a} echo '<{{}}>' X < in" for a in arg_sets))

group("The last of -I, -L and -n wins")
x("replace_then_count", "-I{} -n1", "-I{} -n2", "-i -n1", "-I{} -L1", "-I{} -l")
x("count_then_replace", "-n1 -I{}", "-L1 -I{}", "-l -i")
x("lines_and_args", "-L1 -n2", "-n2 -L1", "-l -n1", "-n1 -l", "-L2 -L1")

group("Optional arguments of short options")
x("replace_with_and_without_a_string", "-i", "-ix", "-I X", "--replace", "--replace=X", "-0i")
x("max_lines", "-l", "-l2", "--max-lines", "--max-lines=2", "-L 2", "-rn1")
x("end_of_file_string", "-e", "-eX", "-E X", "--eof=c", "--eof")
t("null_separated_with_replace", r"""printf 'a b\0c\0' | xargs -0i echo '[{}]'; printf 'a\0b\0' | xargs -0 -n1 echo x""")
