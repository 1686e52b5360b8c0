"""Corners of the shell's own behaviour: break/continue in a loop's
condition and with bad counts, arrays declared but never assigned, `$*`
joined with IFS where no splitting happens, namerefs (chains, dynamic
targets, element targets), `set -u` statuses, `BASH_XTRACEFD`, `/dev/full`,
`test -R -k -u -g -c`, prefix assignments before special builtins, readonly
functions, `mapfile` edge cases, `. /dev/stdin`, POSIX-mode function names."""

tools("grep", "touch", "chmod", "env", "od")

group("break and continue")
t("break_in_while_condition", r'''for i in 1 2; do echo "o$i"; while break; do echo body; done; echo "after $?"; done''')
t("break_in_until_condition", r'''for i in 1 2; do until break; do echo body; done; echo "after $i"; done''')
t("continue_in_until_condition", r'''for i in 1 2; do echo "o$i"; until continue; do echo body; done; echo "after $i"; done''')
t("continue_2_in_condition", r'''for i in 1 2 3; do echo "o$i"; while continue 2; do echo body; done; echo never; done; echo end''')
t("break_2_in_condition", r'''for i in 1 2; do echo "o$i"; until false; do while break 2; do :; done; echo never; done; echo never2; done; echo "end $?"''')
e("loop_count_zero_leaves_all_loops", r'''for i in 1 2; do for j in a b; do echo $i$j; continue 0; echo no; done; echo no2; done; echo "out $?"; for i in 1 2; do echo $i; break -1; done; echo "out $?"''')
e("bad_count_ends_the_shell", r'''for i in 1; do echo in; break x; echo no; done; echo never''')
e("too_many_arguments", r'''for i in 1; do break 1 2; echo no; done; echo never''')
e("outside_a_loop", r'''break; echo "s $?"; continue 2; echo "s $?"; break x; echo "s $?"''')
t("status_of_a_broken_loop", r'''for i in 1; do false; break; done; echo $?; while true; do false; break; done; echo $?''')

group("Arrays declared without a value")
t("declare_p_shows_no_value", r'''declare -a a; declare -A m; declare -ai n; declare 'x[3]'; declare -p a m n x; a+=(); declare -p a''')
t("assignment_makes_them_visible", r'''declare -a a; a=(); declare -p a; declare -a b; b[2]=1; unset 'b[2]'; declare -p b; declare -a c=(); declare -p c''')
t("left_out_of_listings", r'''declare -a zz_e; declare -A zz_m; zz_f=(1); declare | grep '^zz'; echo --; declare -p | grep zz_; echo --; declare -pa | grep zz; echo "${!zz_@}"''')
t("unassigned_array_is_unset", r'''declare -a a; echo "${a-unset} ${#a[@]}"; [[ -v a ]]; echo $?; set -u; echo "${a[@]}" ok''')
t("funcname_outside_functions", r'''declare -p FUNCNAME; f() { declare -p FUNCNAME; }; f; declare -p FUNCNAME''')
t("readonly_and_local_keep_it", r'''declare -a r; readonly r; declare -p r; f() { local -a q; declare -p q; q=(); declare -p q; }; f''')
t("transform_of_array_without_element_0", r'''declare -A m=([k]=v); echo "${m@A}"; a=([2]=x); echo "${a@A}"; declare -ai n=(1 2); echo "${n@A}"''')

group("$* joined where no splitting happens")
t("assignment_joins_with_ifs", r'''a=(x y z); set -- 1 2 3; IFS=:; v=${a[*]}; w=$*; echo "[$v][$w]"; IFS=; v=${a[*]}; echo "[$v]"; unset IFS; v=${a[*]}; echo "[$v]"''')
t("at_list_joins_with_space", r'''a=(x y z); IFS=:; v=${a[@]}; echo "[$v]"; export E=${a[*]}; echo "[$E]"; declare d=${a[*]}; echo "[$d]"''')
t("default_assignment_joins", r'''a=(x y z); IFS=-; : ${v:=${a[*]}}; echo "[$v]"; set -- p q; unset v; : ${v:=$*}; echo "[$v]"; unset v; : ${v:=${a[@]}}; echo "[$v]"''')
t("case_and_here_string", r'''a=(x y); IFS=,; case ${a[*]} in x,y) echo case;; esac; cat <<< ${a[*]}; [[ ${a[*]} == x,y ]] && echo cond''')

group("Namerefs")
t("prefix_names_include_namerefs", r'''declare -n zr_one=t1; declare -n zr_two; zr_x=1; echo "${!zr_@}"''')
t("indirection_through_a_chain", r'''u=deep; declare -n m=u; declare -n top=m; echo "${!top} ${!m} $top"''')
t("reference_to_dynamic_variables", r'''declare -n r=LINENO; echo "$r"; declare -n s=SECONDS; [[ -n $s ]] && echo sec; declare -n q=RANDOM; a=$q; b=$q; c=$q; [[ $a$b != $b$c || $a != $b ]] && echo dynamic''')
t("length_through_an_element_reference", r'''arr=(zero "one two"); declare -n r='arr[1]'; echo "$r ${#r}"''')
t("unset_element_reference_under_nounset", r'''set -u; arr=(a); declare -n r='arr[4]'; echo "[$r]"; echo ok''')
t("transform_of_a_nameref", r'''t=hello; declare -n r=t; echo "${r@A} ${r@a}"; declare -ai arr=(1); p=arr; echo "${!p@a}"''')
t("test_upper_r", r'''v=1; declare -n r=v; declare -n e; [[ -R r ]] && echo r; [[ -R e ]] || echo e; [[ -R v ]] || echo v; test -R r && echo test; declare +n r; [[ -R r ]] || echo plain''')

group("set -u and set -e")
e("unbound_status_with_errexit", r'''set -eu; echo before; echo "$nope"; echo never''')
e("unbound_status_without_errexit", r'''set -u; echo "$nope"; echo never''')
e("heredoc_error_fails_the_command", r'''set -u; cat <<EOF
$nope
EOF
echo "after $?"''')
e("bang_brace", r'''echo "[${!}]"; set -u; echo "${!}"; echo never''')

group("Tracing to BASH_XTRACEFD")
e("trace_to_a_descriptor", r'''exec 3>trace; BASH_XTRACEFD=3; set -x; echo one; x=1; [[ a == a ]]; set +x; echo --; cat trace''')
e("trace_back_to_stderr", r'''exec 3>trace; set -x; BASH_XTRACEFD=3; echo two; unset BASH_XTRACEFD; echo three; set +x; cat trace''')
e("trace_to_stdout", r'''BASH_XTRACEFD=1; set -x; echo hi; set +x''')

group("/dev/full")
e("writes_fail_with_enospc", r'''echo hi > /dev/full; echo "s $?"; printf x > /dev/full; echo "s $?"; [[ -e /dev/full && -c /dev/full ]] && echo dev; head -c 3 /dev/full | od -An -tx1''')
e("trace_to_dev_full", r'''exec 3>/dev/full; BASH_XTRACEFD=3; set -x; echo first; echo "r $?"''')

group("File tests")
t("mode_bits", r'''touch f; [[ -k f ]] || echo nok; chmod 1644 f; [[ -k f ]] && echo k; chmod 4755 f; [[ -u f ]] && echo u; chmod 2755 f; [[ -g f ]] && echo g; [[ -c /dev/null ]] && echo c; [[ -c f ]] || echo notc''')

group("Prefix assignments and special builtins")
t("restored_outside_posix_mode", r'''x=1; x=2 :; echo "[$x]"; x=3 eval 'echo "in $x"'; echo "[$x]"; y=2 eval 'env | grep ^y='; y=4 . /dev/null; echo "[$y]"''')
t("kept_in_posix_mode", r'''set -o posix; x=2 :; echo "[$x]"; y=3 eval :; echo "[$y]"''')

group("Readonly functions")
e("cannot_redefine_or_unset", r'''g() { echo original; }; readonly -f g; echo "s $?"; g() { echo new; }; echo "s $?"; g; unset -f g; echo "s $?"; g; readonly -f nosuch; echo "s $?"''')

group("mapfile")
e("count_zero_and_assoc", r'''mapfile -t -n 0 arr < <(printf 'a\nb\n'); declare -p arr; declare -A m; mapfile m <<< x; echo "s $?"''')

group("source")
t("source_from_stdin", r'''V=outer; V=scoped . /dev/stdin <<'EOF'
echo "in: $V"
INNER=set
EOF
echo "after: $V $INNER"''')
e("posix_mode_special_builtin_errors", r'''set -o posix; . ./nosuch; echo never''')
e("posix_mode_function_names", r'''set -o posix; a-b() { :; }; echo never''')
e("posix_mode_special_builtin_function", r'''set -o posix; eval() { :; }; echo never''')

group("tilde and the directory stack")
t("tilde_names_entries_of_dirs", r'''root=$PWD
for d in a b c d; do mkdir $d; pushd $d >/dev/null; done
for t in ~0 ~1 ~2 ~+2 ~9 ~+9 ~-0 ~-2 ~-4 ~-9 ~+ ~-; do printf '%s ' "${t#"$root"}"; done; echo
x=a:~1:~-1; echo "${x//"$root"/R}"
echo "~1" '~1' \~1''')
t("tilde_numbers_too_large", r'''echo ~99999999999999999999999 ~+99999999999999999999999 ~-99999999999999999999999 ~1844674407370955161599
x=a:~-99999999999999999999999; echo $x
echo "~99999999999999999999999" '~+99999999999999999999999'; echo next''')

group("RANDOM seeded by an assignment")
t("seeded_random_repeats_bashs_numbers", r'''RANDOM=7; s=$RANDOM; echo $RANDOM $RANDOM $s
RANDOM=42; echo $RANDOM $((RANDOM)) ${RANDOM}; (: $RANDOM); echo $RANDOM; x=$RANDOM; echo $x
RANDOM=0; echo $RANDOM; RANDOM=-5; echo $RANDOM; RANDOM=12abc; echo $RANDOM; RANDOM=99999999999; echo $RANDOM
RANDOM=' 8 '; echo $RANDOM; RANDOM=+9; echo $RANDOM; RANDOM=; echo $RANDOM''')

group("Readonly prefix assignments; /tmp")
e("readonly_prefix_assignment_still_runs_the_command", r'''readonly R=1; R=2 echo "[$R]"; echo "s=$?"
f(){ echo "f $R"; }; R=2 f; echo "s=$?"
R=2 Q=3 bash -c 'echo "Q=$Q R=$R"'; echo "s=$?"''')
t("tmp_is_sticky", r'''test -k /tmp && echo sticky; test -d /tmp -a -w /tmp && echo writable''')

group("A subshell in a subshell written like arithmetic")
t("dparen_not_closed_together_is_a_nested_subshell", r'''((echo hi) 2>&1)
((cd / && pwd) )
( (echo c))
( (echo d) )
( (echo $LINENO)
)
x=$( (echo e) ); echo $x
f() { ( (echo g; exit 3) ); echo "f: $?"; }; f
(( (1+2) )); echo "arith $?"
((x=5)); echo "x=$x"
( (y=1) ); echo "y=[$y]"''')

group("A blank between an empty assignment and a list")
e("blank_before_a_list_after_an_empty_assignment_is_a_syntax_error", r'''x=1; echo "$x"
b+= (x); echo never''')
t("empty_assignment_then_a_list_elsewhere_is_fine", r'''a=(1 2); echo ${a[1]}; echo "a= (1)"; c= ; echo "[$c]"''')
