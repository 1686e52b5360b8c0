"""What a name runs and where the shell is: `type` with all its flags,
`command -v/-V`, executable files found on PATH, BASH_LINENO/FUNCNAME, and
syntax errors in `eval` and `source` text named as bash names them."""

tools("chmod")

group("type and command")
e("type_flags", r'''PATH=/usr/bin:/bin; f(){ :; }; type -t -a f echo; type -f f; echo rc=$?; type -ta ls; type -p echo; echo rc=$?; type -P f; echo rc=$?; type -at cd''')
t("type_a_lists_every_path", r'''PATH=/usr/bin:/bin; type -a echo printf true; type -P ls echo''')
t("command_v_status_any_found", r'''PATH=/usr/bin:/bin; command -v ls cd nope; echo rc=$?; command -v nope; echo rc=$?; command -v nope ls; echo rc=$?''')
e("type_bad_option", r'''type -z ls; echo rc=$?''')

group("Executables on PATH")
t("script_on_path_runs_by_name", r'''mkdir -p bin; printf '#!/bin/bash\necho "tool $# $1"\n' > bin/tool; chmod +x bin/tool; PATH="$PWD/bin:/usr/bin:/bin"; tool a b; type -t tool''')
e("not_executable_is_not_found", r'''mkdir -p bin; echo 'echo hi' > bin/tool2; PATH="$PWD/bin:/usr/bin:/bin"; tool2; echo rc=$?''')

group("Call stack")
t("bash_lineno_and_funcname", "f(){ echo ${BASH_LINENO[@]} ${#BASH_LINENO[@]} ${FUNCNAME[@]}; }\ng(){\n f\n}\n\ng\necho top ${#BASH_LINENO[@]}")

t("unset_call_stack_array_stays_gone", r'''f(){ echo "[${FUNCNAME[*]}] [${BASH_LINENO[*]}] [${BASH_SOURCE[*]}]"; g; }; g(){ declare -p FUNCNAME BASH_SOURCE 2>&1; }
f; unset FUNCNAME BASH_SOURCE; f; declare -p FUNCNAME; echo $?; declare -p BASH_LINENO
h(){ local FUNCNAME=mine; echo "$FUNCNAME"; }; h; echo "[${FUNCNAME-unset}]"; FUNCNAME=3; FUNCNAME=4; echo $FUNCNAME''')
e("no_local_of_a_call_stack_array", r'''h(){ local FUNCNAME=mine; echo "[$FUNCNAME] $?"; local BASH_SOURCE; echo "[$BASH_SOURCE] $?"; }; h''')
t("call_stack_arrays_through_nested_calls_and_source", r'''echo 'echo "src: ${FUNCNAME[*]} | ${BASH_SOURCE[*]} | ${BASH_LINENO[*]}"; inner' > lib.sh
inner(){ echo "inner: ${FUNCNAME[*]} | ${BASH_SOURCE[*]} | ${#BASH_LINENO[@]}"; }
outer(){ source ./lib.sh; echo "back: ${FUNCNAME[*]}"; }
outer; echo "top: [${FUNCNAME[*]}] [${BASH_SOURCE[*]}] [${BASH_LINENO[*]}]"; declare -p FUNCNAME''')

group("Syntax errors in eval and source")
e("eval_syntax_errors", r'''eval 'if'; echo rc=$?; eval 'echo a; done'; echo rc=$?; f() { eval 'fi'; }; f''')
e("source_syntax_errors", r'''echo 'fi' > s1.sh; source ./s1.sh; echo rc=$?; printf 'echo ok\nif\n' > s2.sh; . ./s2.sh; echo rc=$?''')

group("BASH_ALIASES")
t("aliases_as_an_associative_array", r'''echo "[${BASH_ALIASES[@]}] ${#BASH_ALIASES[@]}"
alias ll='ls -l'
echo "[${BASH_ALIASES[@]}] [${!BASH_ALIASES[@]}] [${BASH_ALIASES[ll]}] ${#BASH_ALIASES[@]}"
unalias ll; echo "[${BASH_ALIASES[@]}]"''')
t("assigning_to_it_defines_aliases", r'''alias a=b; BASH_ALIASES[c]=d; BASH_ALIASES[a]+=x; k=key; BASH_ALIASES[$k]="echo hi"
BASH_ALIASES[1x]=odd; alias; echo "${#BASH_ALIASES[@]}"
BASH_ALIASES=([q]=w [c]+=e); BASH_ALIASES+=([r]=s); alias
BASH_ALIASES=v; alias 0
unset "BASH_ALIASES[q]"; alias q
shopt -s expand_aliases
eval key''')
t("a_local_of_that_name_is_a_plain_array", r'''f() { local -A BASH_ALIASES; BASH_ALIASES[z]=1; declare -p BASH_ALIASES; alias; }; f; alias; echo done''')

group("The call stack's arrays refuse assignments")
t("call_stack_arrays_ignore_assignments", r'''FUNCNAME=y; echo "[$FUNCNAME] $?"
f(){ FUNCNAME=y; echo "[$FUNCNAME] $?"; BASH_SOURCE=z; BASH_LINENO=3; echo "[${BASH_LINENO[*]}]"; }; f
FUNCNAME[1]=q; echo $?; BASH_ARGV=x; declare -p BASH_ARGV
g(){ echo "[$FUNCNAME]"; }; FUNCNAME=x g
unset FUNCNAME; FUNCNAME=x; echo $FUNCNAME''')
t("call_stack_array_given_a_list_ends_the_shell", r'''(FUNCNAME=(y); echo in); echo "out $?"
f(){ BASH_SOURCE+=(x); echo in; }; f; echo never''')
t("call_stack_array_assignment_by_a_builtin_fails", r'''declare FUNCNAME=x; echo "$? [$FUNCNAME]"; printf -v BASH_SOURCE %s hi; echo "$? [$BASH_SOURCE]"''')
