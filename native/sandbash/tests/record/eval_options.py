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
