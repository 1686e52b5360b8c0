"""`eval` parses its options as bash's no_options does: `--` ends them, any other word
starting with `-` (but `-` alone) is an invalid option with the usage line and status 2."""

group("eval options")
e("eval_double_dash", r'''eval -- echo hi; echo "rc=$?"
eval --; echo "rc=$?"
eval -- -x; echo "rc=$?"
eval -- --; echo "rc=$?"
eval -- ''; echo "rc=$?"''')
e("eval_invalid_options", r'''eval -e echo hi; echo "rc=$?"
eval -b}; echo "rc=$?"
eval '-x'; echo "rc=$?"
eval -1; echo "rc=$?"
eval -n; echo "rc=$?"
a=\-; eval ${a:-a}b}; echo "rc=$?"''')
e("eval_dash_alone_and_later_dashes", r'''eval - echo x; echo "rc=$?"
eval echo -e -- x; echo "rc=$?"
eval "echo a" -- b; echo "rc=$?"''')

group("line numbers of eval text")
e("syntax_errors_count_from_the_eval_line", r''':
:
eval "echo \$LINENO
echo \$LINENO; (
"
eval "x=\$LINENO"; echo $x
eval "

\""
f() { eval "("; }
f
eval '"'
eval "<"
eval 'echo ok; case x in'
eval 'if'; echo "st=$?"''')
e("nested_eval_lines", r''':
eval ':
eval "echo \$LINENO; ( "'
x=1; eval "$(printf '%s\n' ':' 'fi')"''')
