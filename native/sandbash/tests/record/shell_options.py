"""Shell options: every `set -o` and `shopt` name of bash 5.2 with its default,
the listings, errors, and the options that change how a script runs (lastpipe,
nocasematch, inherit_errexit, xpg_echo, patsub_replacement, braceexpand,
noexec, shift_verbose)."""

tools("grep")

group("Listings and defaults")
t("set_o_lists_every_option", r'''set -o''')
t("set_plus_o_is_reusable", r'''set +o''')
t("shopt_lists_every_option", r'''shopt''')
t("shopt_s_lists_those_on", r'''shopt -s''')
t("shopt_u_lists_those_off", r'''shopt -u''')
t("shopt_p_reusable", r'''shopt -p''')
t("shopt_o_uses_set_names", r'''shopt -o; shopt -po errexit pipefail''')
t("flags_of_a_fresh_shell", r'''echo $-''')
t("flags_follow_bash_order", r'''set -euT -o pipefail; set -C -f -a; echo $-''')
t("query_status", r'''shopt -q nullglob; echo $?; shopt -q sourcepath; echo $?; shopt nullglob dotglob; echo $?''')
t("query_set_o_through_shopt", r'''shopt -qo errexit; echo $?; set -e; shopt -qo errexit; echo $?''')
t("vi_and_emacs_exclude_each_other", r'''set -o vi; set -o | grep -E '^(vi|emacs)'; set -o emacs; set -o | grep -E '^(vi|emacs)' ''')
t("test_o_reads_set_names_only", r'''[[ -o braceexpand ]] && echo brace; [[ -o lastpipe ]] || echo not-a-set-name; set -o pipefail; [ -o pipefail ] && echo pf''')
t("inert_options_are_kept", r'''shopt -s cdspell histappend; shopt cdspell histappend; set -o nolog; set -o | grep nolog''')

group("Errors")
e("shopt_unknown_name", r'''shopt -s nullglob bogus dotglob; echo $?; shopt -p nullglob dotglob''')
e("shopt_o_unknown_name", r'''shopt -o bogus; echo $?''')
e("shopt_bad_flag", r'''shopt -x; echo $?''')
e("set_o_unknown_name", r'''set -o bogus; echo $?''')

group("Options that change how scripts run")
t("lastpipe_keeps_read_in_shell", r'''echo 5 | read x; echo "[$x]"; shopt -s lastpipe; echo 6 | read y; echo "[$y]"''')
t("lastpipe_while_loop_counts", r'''shopt -s lastpipe; n=0; printf 'a\nb\nc\n' | while read l; do n=$((n+1)); done; echo $n''')
t("lastpipe_pipestatus", r'''shopt -s lastpipe; (exit 3) | false | read v; echo ${PIPESTATUS[@]}''')
t("lastpipe_exit_in_last_stage", r'''shopt -s lastpipe; echo x | exit 7; echo not reached''')
t("nocasematch_case_and_cond", r'''shopt -s nocasematch; case ABC in abc) echo case;; esac; [[ Hello == h* ]] && echo glob; [[ XYZ =~ ^x ]] && echo re; shopt -u nocasematch; [[ Hello == h* ]] || echo exact''')
t("errexit_cleared_in_command_substitution", r'''set -e; x=$(false; echo still); echo "x=$x"''')
t("inherit_errexit_keeps_it", r'''set -e; shopt -s inherit_errexit; x=$(false; echo still); echo "x=[$x]"''')
t("xpg_echo_expands_escapes", r'''shopt -s xpg_echo; echo 'a\tb'; echo -E 'c\td' ''')
t("patsub_replacement_ampersand", r'''x=abc; echo ${x/b/[&]} "${x/b/[&]}" ${x/b/\&} ${x/b/"&"} ${x//[ac]/<&&>}; r='&'; echo ${x/b/$r}; echo ${x/#a/&&} ${x/%c/-&}''')
t("patsub_replacement_off", r'''shopt -u patsub_replacement; x=abc; echo ${x/b/[&]}''')
t("braceexpand_off", r'''set +B; echo {a,b} x{1..3}; set -B; echo {a,b}''')
t("noexec_stops_running", r'''echo before; set -n; echo after''')
e("shift_verbose_reports", r'''shopt -s shift_verbose; set -- a; shift 2; echo $?; shift; shift; echo $?''')

group("local - and set -x")
t("local_dash_restores_options", r'''g() { local -; set -e; set -o pipefail; false; echo no; }; g; echo "after $-"; set -o | grep pipefail''')
t("local_dash_with_other_names", r'''f() { local - x=1; set -u; echo "$x $-"; }; f; echo "$-"''')
e("xtrace_compound_commands", r'''set -x; x="a b"; [[ $x ]]; [[ ! -z $x ]]; [[ $x == a* || -f /nope ]]; [[ 1 -lt 2 ]]; y=3; (( z = $y + 1 )); ((z++)); for i in 1 "2 3"; do :; done; for ((j=0; j<1; j++)); do :; done; for ((;;)); do break; done; case "$x" in a*) :;; esac''')

group("ERR and set -e after compound commands")
t("err_trap_once_per_failure", "trap 'echo ERR' ERR\n{ false; }; echo a\nif true; then false; fi; echo b\nfor x in 1; do false; done; echo c\nfor ((k=0;k<2;k++)); do false; done; echo d\ncase x in x) false;; esac; echo e\nwhile :; do false; break; done; echo f\n{ (exit 2); }; echo g\n( false ); echo h\nf() { false; }; f; echo i\n[[ a = b ]]; (( 0 )); echo j")
t("err_trap_not_for_a_failing_condition_inside", "trap 'echo ERR' ERR\n{ false && true; }; echo a\nfor x in 1; do false && true; done; echo b\nf() { false && true; }; f; echo c")
e("err_trap_for_a_compound_whose_redirection_fails", "trap 'echo ERR' ERR\n{ :; } < /nonexistent; echo a\n{ false; } < /dev/null; echo b\n{ :; } < /nonexistent && echo x; echo c")
t("errexit_not_for_a_condition_inside_a_compound", "set -e\n{ false && true; }; echo a\nif true; then false && true; fi; echo b\nfor x in 1; do false && true; done; echo c\nwhile :; do false && true; break; done; echo d\ncase 1 in 1) false && true;; esac; echo e\n( false && true ); echo never")
e("errexit_for_a_compound_whose_redirection_fails", "set -e\n{ :; } < /nonexistent; echo never")

group("The xtrace line comes before the command's redirections")
e("xtrace_line_goes_to_the_shells_stderr", r'''set -x; echo hi 2>err; : x 2>/dev/null; echo a > /nonexistent/x; f() { echo in; }; f 2>/dev/null; set +x
echo "err:"; cat err''')

group("The last letter of $- says where commands come from")
tools("chmod")
t("dash_letter_by_input", r'''echo "$-"; echo 'echo "stdin $-"' | bash; bash -c 'echo "string $-"'; printf 'echo "file $-"\n' > s.sh; bash s.sh; chmod +x s.sh; ./s.sh; (echo "subshell $-"); x=-; echo "indirect ${!x} ${#-}"''')
t("dash_letter_in_a_script_file", r'''printf 'echo "$-"; x=-; echo "${!x}"; f() { echo "${-}"; }; f; set -e; echo "$-"; source ./t.sh\n' > s.sh; echo 'echo "sourced $-"' > t.sh; bash s.sh; bash -s < s.sh; echo 'echo "$-"' | bash -s a b''')
