"""An EXIT trap set in a subshell runs when that subshell ends: ( ), $( ), and each stage of
a pipeline (a subshell too), with the status the subshell had; the parent's trap is not
inherited."""

tools("cat")

group("exit traps of subshells")
t("pipeline_stage_exit_trap", r'''{ trap 'echo t' EXIT; echo a; } | cat; echo b
echo a | { trap 'echo t2' EXIT; cat; }; echo b
{ trap 'echo t3 $?' EXIT; false; } | cat; echo "b ${PIPESTATUS[*]}"
{ trap 'echo t4; exit 4' EXIT; true; } | cat; echo "b ${PIPESTATUS[*]}"''')
t("subshell_exit_trap_orders", r'''( trap 'echo t' EXIT; echo a ); echo b
( trap 'echo t' EXIT; exit 3 ); echo "rc=$?"
( trap 'echo t; exit 5' EXIT; echo a ); echo "rc=$?"
x=$( trap 'echo t' EXIT; echo a ); echo "[$x]"
( trap 'echo t' EXIT; ( trap 'echo i' EXIT; echo inner ); echo a ); echo b
f(){ trap 'echo t' EXIT; }; ( f; echo a ); echo b''')
t("parent_trap_not_inherited", r'''trap 'echo outer' EXIT; ( echo sub ); { echo piped; } | cat; x=$(echo cs); echo "main $x"''')
e("exit_trap_after_errors", r'''( trap 'echo t $?' EXIT; set -u; echo $zz; echo a ); echo "rc=$?"
( trap 'echo t $?' EXIT; echo ${zz:?m}; echo a ); echo "rc=$?"
( trap 'echo t $?' EXIT; echo $((1/0)); echo a ); echo "rc=$?"
( trap 'echo t $?' EXIT; (( a[1/0] )); echo a ); echo "rc=$?"''')
