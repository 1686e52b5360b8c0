"""Coprocesses (`coproc [NAME] COMMAND`): the command runs in the background
with its stdin and stdout on pipes the shell holds as `${NAME[1]}` and
`${NAME[0]}`. Cases only print what does not depend on timing (bash reaps a
finished coprocess at any moment, so its read end is copied first)."""

tools("tr")

group("Coprocesses")
t("coproc_fds_and_pid", r'''coproc cat; echo "${COPROC[@]}"; [ -n "$COPROC_PID" ] && echo has-pid; exec {COPROC[1]}>&-; wait''')
t("coproc_write_close_read_all", r'''coproc cat; exec 3<&${COPROC[0]}; echo hello >&${COPROC[1]}; echo world >&${COPROC[1]}; exec {COPROC[1]}>&-; cat <&3; wait $COPROC_PID; echo "st=$?"''')
t("coproc_request_response", r'''coproc { while read -r x; do echo "$((x * 2))"; done; }
for n in 1 2 3; do echo $n >&${COPROC[1]}; read -u ${COPROC[0]} r; echo "$n -> $r"; done
exec {COPROC[1]}>&-; wait $COPROC_PID; echo "st=$?"''')
t("coproc_named_group", r'''coproc NAME { read x; echo "got $x"; echo two; }
exec 3<&${NAME[0]}; echo "${NAME[@]}"; echo hi >&${NAME[1]}; cat <&3; wait $NAME_PID; echo "st=$?"''')
t("coproc_read_u_loop", r'''coproc { for i in 1 2 3; do echo "line $i"; done; read; }
for i in 1 2 3; do read -u ${COPROC[0]} l; echo "got $l"; done
exec {COPROC[1]}>&-; wait''')
t("coproc_simple_command_with_args", r'''coproc tr a-z A-Z; exec 3<&${COPROC[0]}; echo abc >&${COPROC[1]}; exec {COPROC[1]}>&-; cat <&3''')
t("coproc_wait_unsets_variables", r'''coproc cat; exec {COPROC[1]}>&-; wait $COPROC_PID; echo "st=$? [${COPROC[*]}] [${COPROC_PID}]"; declare -p COPROC 2>/dev/null || echo gone''')
t("coproc_exit_status_through_wait", r'''coproc { read x; exit 3; }; echo go >&${COPROC[1]}; wait $COPROC_PID; echo "st=$?"''')
t("coproc_killed", r'''coproc sleep 10; kill $COPROC_PID; wait $COPROC_PID; echo "st=$?"''')
t("coproc_in_jobs", r'''coproc cat; jobs; exec {COPROC[1]}>&-; wait''')
t("coproc_in_function_printed", r'''f() { coproc tr a-z A-Z; echo abc >&${COPROC[1]}; exec {COPROC[1]}>&-; }; declare -f f''')

group("Job text")
t("jobs_text_multiline_subshell", r'''( sleep 1
echo b ) &
{ sleep 1; echo c; } &
sleep 1 && echo x | cat &
jobs; kill %1 %2 %3; wait''')
