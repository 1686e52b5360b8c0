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
