"""Pipelines: stages connected by pipes, status, `set -o pipefail`,
PIPESTATUS, early-closing readers, and state isolation of stages."""

group("Basic pipelines")
t("pipe_echo_cat", r'''echo hello | cat''')
t("pipe_three_stages", r'''echo data | cat | cat''')
t("pipe_group_to_group", r'''{ echo a; echo b; } | { read x; read y; echo "$y$x"; }''')
t("pipe_while_read", r'''{ echo 1; echo 2; echo 3; } | while read n; do echo "n$n"; done''')
t("pipe_status_is_last", r'''false | true; echo $?; true | false; echo $?''')
t("pipe_bang_negates_last", r'''! true | false; echo $?''')
t("pipe_stages_are_subshells", r'''x=1; echo 2 | read x; echo $x''')
t("pipe_last_stage_var_not_kept", r'''echo val | { read v; echo "in: $v"; }; echo "out: [$v]"''')
t("pipe_function_stage", r'''up() { while read l; do echo "<$l>"; done; }; { echo a; echo b; } | up''')
t("pipe_multiline", r'''echo a |
cat |
cat''')
t("pipe_into_subshell", r'''echo sub | (read x; echo "got $x")''')
t("pipe_builtin_output", r'''pwd | cat''')
t("pipe_cmdsub_inside", r'''echo "$(echo inner | cat)" | cat''')
t("pipe_large_output", r'''s=0123456789; for i in 1 2 3 4 5 6 7 8 9 10 11 12; do s=$s$s; done; for i in {1..20}; do echo $s; done | { n=0; while read l; do n=$((n+${#l})); done; echo $n; }''')
t("pipe_and_list_precedence", r'''echo a | cat && echo b | cat''')
t("pipe_stderr_not_piped", r'''{ echo out; echo err >&2; } 2>/dev/null | cat''')
t("pipe_exit_in_stage_only_stage", r'''echo x | exit 3; echo after $?''')

group("Early-closing readers")
t("pipe_yes_head_ends", r'''yes | head -n 1''')
t("pipe_infinite_loop_reader_closes", r'''while :; do echo y; done | { read l; echo "read $l"; }''')
t("pipe_writer_status_141", r'''while :; do echo y; done | { read l; }; echo "${PIPESTATUS[@]}"''')

group("pipefail and PIPESTATUS")
t("pipestatus_all_stages", r'''true | false | true; echo "${PIPESTATUS[@]}"''')
t("pipestatus_single_command", r'''false; echo "${PIPESTATUS[@]}"''')
t("pipestatus_exit_codes", r'''(exit 2) | (exit 3) | (exit 0); echo "${PIPESTATUS[0]} ${PIPESTATUS[1]} ${PIPESTATUS[2]}"''')
t("pipestatus_count", r'''true | true | true | true; echo ${#PIPESTATUS[@]}''')
t("pipefail_off_default", r'''false | true; echo $?''')
t("pipefail_on_rightmost_failure", r'''set -o pipefail; (exit 2) | (exit 3) | true; echo $?''')
t("pipefail_on_all_success", r'''set -o pipefail; true | true; echo $?''')
t("pipefail_with_errexit", r'''set -eo pipefail; false | true; echo never''')
t("pipefail_in_if", r'''set -o pipefail; if false | true; then echo yes; else echo no; fi''')
t("pipefail_option_listed", r'''set -o pipefail; set -o | while read name state; do [ "$name" = pipefail ] && echo "$name $state"; done''')

group("PIPESTATUS after compound commands")
t("pipestatus_left_by_compound_commands_and_definitions", r'''for c in '{ :; }' 'f(){ :; }' 'case x in y) ;; esac' 'if true; then :; fi' 'if false|true; then false|false; fi' 'while false; do :; done' 'for i in; do :; done' '(( 1 ))' '[[ 1 ]]' '( : )' 'x=1' 'for ((;0;)); do :; done' '{ false|true; false; }'; do
  eval "false | true; $c; echo \"\${PIPESTATUS[*]} <- \$c\""
done''')
t("pipestatus_set_even_when_readonly", r'''PIPESTATUS=(9 9); readonly PIPESTATUS; true | false; echo ${PIPESTATUS[@]}''')
