"""`SHLVL`: exported, one above the environment's; a nested `bash` starts one
level deeper, except when it is the last command of a `-c` string, a `( )`,
a `$( )` or a background job (bash runs that one without forking, as an
implicit `exec`, which lowers the level first); bad and huge values."""

group("The shell's own level")
t("exported_at_one", r'''echo $SHLVL; declare -p SHLVL''')
t("a_subshell_keeps_it", r'''(echo $SHLVL); echo $(echo $SHLVL); echo $SHLVL | cat''')

group("A nested shell")
t("one_deeper_when_more_follows", r'''bash -c 'echo $SHLVL'; sh -c 'echo $SHLVL'; echo end''')
t("the_last_command_is_execed", r'''bash -c 'echo $SHLVL' ''')
t("after_a_list", r'''echo a; bash -c 'echo $SHLVL' ''')
t("after_a_list_and_an_and", r'''echo a; true && bash -c 'echo $SHLVL' ''')
t("an_and_or_chain", r'''true && false || bash -c 'echo $SHLVL' ''')
t("after_a_failed_or", r'''false || bash -c 'echo $SHLVL' ''')
t("in_a_subshell_or_substitution", r'''(bash -c 'echo $SHLVL'); echo $(bash -c 'echo $SHLVL'); x=$(bash -c 'echo $SHLVL'; :); echo $x''')
t("in_a_background_job", r'''bash -c 'echo $SHLVL' & wait; bash -c 'echo $SHLVL; :' & wait''')
t("not_execed", r'''bash -c 'echo $SHLVL' > /dev/stdout; ! bash -c 'echo $SHLVL'; echo x | bash -c 'echo $SHLVL'; f() { bash -c 'echo $SHLVL'; }; f; eval 'bash -c "echo \$SHLVL"'; for i in 1; do bash -c 'echo $SHLVL'; done''')
e("an_exit_trap_keeps_the_fork", r'''trap 'echo trap' EXIT; bash -c 'echo $SHLVL' ''')
t("an_ignored_signal_does_not", r'''trap '' INT; bash -c 'echo $SHLVL' ''')
t("nested_twice", r'''bash -c 'bash -c "echo \$SHLVL"'; bash -c 'bash -c "echo \$SHLVL"; :'; bash -c 'echo $SHLVL; bash -c "echo \$SHLVL; bash -c \"echo \\\$SHLVL\"; :"' ''')

group("Values")
t("set_and_exported", r'''SHLVL=7; bash -c 'echo $SHLVL'; export SHLVL=3; bash -c 'echo $SHLVL'; :''')
t("unset_or_not_exported", r'''export -n SHLVL; bash -c 'echo $SHLVL'; unset SHLVL; bash -c 'echo ${SHLVL-unset}'; :''')
t("not_a_number_or_negative", r'''SHLVL=abc; bash -c 'echo $SHLVL'; SHLVL=-5; bash -c 'echo $SHLVL'; SHLVL=' 4 '; bash -c 'echo $SHLVL'; :''')
e("too_high", r'''SHLVL=999; bash -c 'echo $SHLVL'; SHLVL=998; bash -c 'echo $SHLVL'; :''')
