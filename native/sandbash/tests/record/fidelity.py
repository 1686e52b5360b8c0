"""Fidelity fixes found by comparing with bash: trap listings in subshells,
child `bash` invocation options, and other details."""

group("trap listings")
t("trap_list_in_pipeline_shows_parent_traps", r'''trap "echo cleanup" EXIT; trap "echo oops" ERR; trap -p | cat; trap | cat; trap - EXIT ERR''')
t("trap_list_order_exit_signals_then_pseudo", r'''trap a ERR; trap b EXIT; trap c TERM; trap d RETURN; trap f INT; trap; trap -p RETURN EXIT; trap - ERR EXIT RETURN''')
t("trap_subshell_setting_a_trap_forgets_parent_ones", r'''trap "echo x" EXIT; trap "" INT; (trap "echo y" TERM; trap); echo --; ( trap - EXIT; trap ); echo --; echo "$(trap -p EXIT)"''')

group("child bash options")
e("bash_n_checks_syntax_only", r'''bash -n -c 'echo hello'; echo "status: $?"; bash -ne -c 'echo test'; echo $?; bash -n -c 'if'; echo $?''')
e("bash_invalid_options", r'''bash -q; echo "exit:$?"; bash --verison; echo "exit:$?"; bash -o invalidopt -c 'echo hi'; echo "exit:$?"; bash -O nosuch -c 'echo hi'; echo "exit:$?"''')
t("bash_help_and_version", r'''bash --help; echo "exit:$?"; bash --version; echo "exit:$?"''')
t("bash_long_options_accepted", r'''bash --norc --noprofile -c 'echo ok'; bash -O extglob -c 'shopt extglob'; bash -o pipefail -c 'false | true; echo $?' ''')
e("bash_child_fatal_expansion_error_is_127", r'''bash -u -c 'echo $UNDEF_X; echo no'; echo "exit:$?"; bash -c 'x=; echo ${x:?is empty}; echo no'; echo "exit:$?"; bash -c '(echo ${y?unset}); echo "sub $?"'; echo "exit:$?"''')

group("extglob negation")
t("extglob_negation_in_case_and_cond", "shopt -s extglob\n" + r'''case foo in !(foo|bar)) echo match;; *) echo no;; esac; [[ foo == !(foo|bar) ]] && echo m2 || echo n2; [[ fo == !(foo|bar) ]] && echo m3; case foo.txt in !(*.txt)) echo m4;; *) echo n4;; esac''')
t("extglob_negation_inside_a_pattern", "shopt -s extglob\n" + r'''[[ a.c == *.!(txt) ]] && echo m5; [[ a.txt == *.!(txt) ]] && echo m6 || echo n6; [[ abc == a!(b)c ]] && echo m7 || echo n7; [[ axc == a!(b)c ]] && echo m8; [[ abbc == a!(b)c ]] && echo m9''')
t("extglob_negation_in_pathnames", "shopt -s extglob\n" + r''': > a.txt; : > b.log; : > c.sh; echo !(*.txt); echo !(*.txt|*.sh); echo *.!(log)''')

group("line continuations")
t("line_continuation_in_quoted_assignments", "x=\"abc\\\ndef\"; echo \"$x\"; y=abc\\\ndef; echo $y; f() { local v=\"p\\\nq\"; echo $v; }; f; declare w=\"m\\\nn\" k='s\\\nt'; echo $w \"$k\"")

group("invalid names")
e("for_loop_invalid_variable_name", r'''for i.j in a b; do echo hi; done; echo "st $?"; for a[1] in x; do echo $a; done; echo $?''')
e("local_outside_function_still_assigns_arrays", r'''local arr=(x y z); echo $?; local -a b2=(p); local c=(1) d=2; local -A m=([k]=v); declare -p arr b2 c m; declare -p d; local e+=(x); declare -p e''')

group("globstar")
t("globstar_matches_any_depth", r'''mkdir -p gs/sub/deep gs/.hid; : > gs/top.txt; : > gs/sub/a.txt; : > gs/sub/deep/b.txt; : > gs/.hid/h.txt; cd gs
shopt -s globstar; echo **; echo **/; echo **/*.txt; echo sub/**; echo sub/**/b.txt; echo x/**; echo **/deep; echo "**"; shopt -s dotglob; echo **/*.txt; shopt -u globstar; echo **/*.txt''')

group("DEBUG trap")
t("debug_trap_runs_before_each_simple_command", r'''count=0; trap '((count++))' DEBUG; echo a; echo b; trap - DEBUG; echo $count''')
t("debug_trap_bash_command_and_status", r'''trap 'echo "dbg [$BASH_COMMAND]"' DEBUG; x=1; f() { echo inf; }; f; false; echo "st $?"; trap - DEBUG; trap 'echo "s=$?"' DEBUG; (exit 4); echo after''')

group("time keyword")
e("time_reports_on_stderr_with_timeformat", r'''TIMEFORMAT='r=%0R l=%0lR %%'; time true; time echo hi 2>/dev/null; TIMEFORMAT=; time true; echo done; unset TIMEFORMAT; { time -p true; } 2>&1 | head -1''')
t("time_keeps_the_pipeline_status", r'''TIMEFORMAT=; time false; echo $?; time ! false; echo $?; f() { return 3; }; time f; echo $?''')

group("BASH_SOURCE")
t("bash_source_of_sourced_and_executed_files", r'''echo 'echo "src=${BASH_SOURCE[0]} n=${#BASH_SOURCE[@]} all=${BASH_SOURCE[*]}"' > s1.sh; echo "top=[${BASH_SOURCE[*]}] ${#BASH_SOURCE[@]}"; source ./s1.sh; echo "after=[${BASH_SOURCE[*]}]"; bash ./s1.sh; bash s1.sh x; echo 'source s1.sh' > s2.sh; bash s2.sh''')

group("failglob")
e("failglob_abandons_the_command_line", r'''shopt -s failglob
echo *.nope; echo same-line
echo "st $?"
f() { echo *.nope; echo in-f; }
f; echo after-f
echo "st $?"
{ echo *.nope; echo grp; }
echo "st $?"
( echo *.nope; echo sub ); echo "sub st $?"
x=$(echo *.nope; echo cs); echo "cs [$x] $?"
echo "*.nope" *.nope2
: > a.txt; echo *.txt
echo end''')

group("named descriptors")
t("exec_named_fd_open_write_read_close", r'''exec 3>/dev/null; myfd=3; exec {myfd}>&-; echo closed; exec {fd}>out.txt; echo "fd=$fd"; echo hello >&$fd; exec {fd2}>>out.txt; echo "fd2=$fd2"; echo more >&$fd2; exec {fd}>&- {fd2}>&-; cat out.txt; exec {rd}<out.txt; read -u $rd line; echo "read: $line"; echo {x} >/dev/null; echo "x=${x-unset}"; echo {a}''')
t("named_fd_on_a_command", r'''echo hi {o}>g.txt >&$o; echo "o=$o"; cat g.txt''')

group("syntax errors after commands")
e("commands_before_a_syntax_error_run", "echo a\nif true; then\n echo b\nfi fi\necho c")
e("syntax_error_line_runs_nothing_and_exit_trap_runs", "trap 'echo bye' EXIT\necho a\necho b; fi")
e("exit_before_a_syntax_error", "echo x\nexit 3\nfi")
t("eval_runs_commands_before_its_syntax_error", 'eval "echo e1\nfi" 2>/dev/null; echo "after eval $?"')

group("output process substitution")
t("redirect_into_output_process_substitution", r'''echo hello > >(cat)''')
t("output_process_substitution_to_a_file", r'''echo data > >(cat > f.txt); sleep 0.3; cat f.txt; echo x >> >(cat > g.txt); sleep 0.3; cat g.txt''')

group("xtrace and errtrace")
e("xtrace_shows_assignment_only_commands", r'''set -x; a=1; b='x y'; c=; d=(1 'a b'); e+=z; f[2]=q; echo $a''')
t("errtrace_sends_err_trap_into_functions", r'''set -o errtrace; trap 'echo ERR' ERR; f() { false; echo in-f; }; f; set +E; f; echo "$-"''')
t("dash_flags_hold_c_for_a_command_string", r'''echo $-; set -eu; echo $-; set +eu; set -E; echo $-''')
t("epoch_and_srandom_variables", r'''[[ $EPOCHREALTIME =~ ^[0-9]+\.[0-9]{6}$ ]] && echo real; (( EPOCHSECONDS > 1700000000 )) && echo secs; (( SRANDOM >= 0 && SRANDOM < 4294967296 )) && echo srandom; a=$SRANDOM; b=$SRANDOM; [[ $a != "$b" ]] && echo differ''')

group("enable")
e("enable_turns_builtins_off_and_on", r'''enable | head -3; enable -n echo; enable -n; enable echo; type -t echo; enable nosuch; echo "st=$?"; enable -n test [; enable -n; enable test; enable -n''')
e("xtrace_marks_command_substitution_levels", r'''set -x; (echo a); x=$(echo c; y=$(echo d)); echo "$x"; PS4='>> '; z=$(true)''')
