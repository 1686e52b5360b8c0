"""Background jobs: `&`, `$!`, `wait`, `jobs`. Jobs run concurrently with
the script; the cases only print what does not depend on timing."""

group("background jobs")
t("bg_job_output_then_wait", r'''echo hello & wait $!; echo "status $?"''')
t("bg_job_status_through_wait_pid", r'''false & wait $!; echo "st $?"; (exit 3) & p=$!; wait $p; echo "st $?"; wait $p; echo "again $?"''')
t("bg_function_and_group", r'''f() { echo in-f; return 2; }; f & wait $!; echo $?; { echo g; exit 5; } & wait; echo "w $?"''')
t("bg_wait_without_jobs", r'''wait; echo $?''')
t("bg_bang_is_set_and_per_shell", r'''true & [ -n "$!" ] && echo set; p=$!; junk=$(true & true); [ "$!" = "$p" ] && echo isolated''')
t("bg_runs_concurrently", r'''{ sleep 0.2; echo second; } & echo first; wait; echo done''')
t("bg_stdin_is_empty", r'''cat & wait; echo "st $?"''', stdin=b"not read\n")
t("bg_variables_stay_in_job", r'''x=1; { x=2; } & wait; echo $x''')
e("bg_wait_unknown_ids", r'''wait 999999; echo "st $?"; wait %5; echo "st $?"; wait -n; echo "n $?"''')
t("bg_wait_n_returns_next_status", r'''(exit 7) & wait -n; echo "n $?"''')
t("wait_n_skips_a_job_that_ended_before_a_foreground_command", r'''(exit 3) & sleep 0.2; wait -n; echo "n $?"; (exit 4) & wait -n; echo "n $?"''')
t("bg_jobs_listing", r'''sleep 0.3 & sleep 0.2 & jobs; echo "[$?]"; [[ $(jobs -l) =~ ^\[1\]-\ +[0-9]+\ Running ]] && echo pid-listed; jobs %1; jobs %-; echo "[$(jobs %+)]"; wait; jobs; echo end''')
t("bg_finished_jobs_not_listed", r'''(exit 3) & sleep 0.1; jobs; echo "[$?]"''')
t("bg_and_or_list_in_background", r'''false || echo rescued & wait; true && echo both & wait''')
t("bg_loop_in_background", r'''for i in 1 2 3; do echo $i; done & wait''')

group("kill")
t("kill_ends_background_jobs", r'''{ sleep 5 & p=$!; kill $p; wait $p; echo "w $?"; sleep 5 & kill -s HUP %1; wait %1; echo "hup $?"; sleep 5 & kill -n 1 $!; wait; echo "all $?"; } 2>/dev/null''')
e("kill_errors", r'''kill 999999; echo "st $?"; kill -9 abc; echo "st $?"; kill %3; echo "st $?"; kill; echo "st $?"; kill -s BOGUS 1; echo "st $?"; type kill''')

group("Process substitutions seen through wait")
t("wait_for_a_process_substitution", r'''cat <(exit 4); wait $!; echo "read: $?"; echo x > >(cat > /dev/null; exit 5); wait $!; echo "write: $?"; sleep 0 & p=$!; cat <(exit 6); wait $p; echo "job: $?"; wait $!; echo "sub: $?"; wait; echo "all: $?"''')
