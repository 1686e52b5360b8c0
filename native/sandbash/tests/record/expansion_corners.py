"""Expansion corners: slices of sparse arrays (the offset is an index),
`${x@a}` with every attribute letter in bash's order, indirection to digits,
errors bash exits on under `set -e` wherever they happen (an invalid
indirect expansion, a bad subscript) next to those it does not (a negative
substring length), how `set -u` names `$1` and `${1}`, and `printf -v`
names checked before formatting."""

group("Slices of sparse arrays")
t("offset_is_an_index", r'''arr[2]=x; arr[5]=y; arr[9]=z; printf '<%s>' "${arr[@]:1:1}" "${arr[@]:3}" "${arr[@]:2:2}" "${arr[@]: -1}" "${arr[@]:10}" "${arr[*]:3:1}"; echo''')
t("negative_offsets_count_from_the_last_index", r'''a=([1]=a [3]=b [4]=c); echo "${a[@]:0:2}|${a[@]:2}|${a[@]: -2:1}|${a[@]: -10}|${a[@]: -5}|"''')
t("through_a_nameref_and_dense", r'''a=([1]=a [3]=b); declare -n r=a; echo "${r[@]:2}"; b=(x y z); echo "${b[@]:1:1}" "${b[*]: -2}" "${b[@]:1:0}"''')
e("negative_length", r'''b=(x y z); echo "${b[@]:1:-1}"; echo after''')

group("Attribute letters")
t("case_and_trace_letters", r'''f() { local -u x=abc; echo "${x@a}"; local -l y; echo "${y@a}"; declare -c z=q; echo "${z@a}"; }; f; declare -ct c=x; echo "${c@a}"; declare -lx l=X; echo "${l@a}"; declare -iu iu=1; echo "${iu@a}"; declare -ar ar=(1); echo "${ar@a}"''')

group("Indirection")
t("digits_name_positional_parameters", r'''x=010; echo "[${!x}]"; set -- p q; x=1; echo "${!x}"; x=02; echo "${!x}"; x=0; echo "${!x}"''')

group("Errors under set -e")
e("invalid_indirect_expansion_exits", "set -e\necho ${!x}; echo same\necho next")
e("even_in_a_condition", "set -e; if echo ${!x}; then :; fi; echo same\necho next $?")
e("even_in_a_function", "set -e; f() { echo ${!x}; echo in f; }; f; echo same\necho next $?")
e("invalid_variable_name_exits", "set -e\nx='a b'; echo ${!x}; echo same\necho next")
e("bad_subscript_exits", "set -e\nx=(a); echo ${x[-5]}; echo same\necho next")
e("without_set_e", "x=(a); echo ${x[-5]}; echo same\necho ${!y}; echo same2\necho next $?")
e("substring_error_does_not_exit", "set -e\na=5; echo ${a:1:-9}; echo same\necho next")

group("set -u names")
e("bare_positional", r'''set -u; echo $1''')
e("braced_positional", r'''set -u; echo ${1}''')
e("braced_two_digits", r'''set -u; echo "${10}x"''')

group("printf -v")
e("names_are_checked_first", r'''printf -v "bad name" x; echo $?; printf -v 1x %s y; echo $?; printf -v "a[" %s y; echo $?; printf -v "" %s y; echo $?; printf -v "a[1]" %s y; echo $? ${a[1]}''')
e("readonly_target", r'''readonly r; printf -v r %s y; echo $?''')
e("bad_name_under_set_e", r'''set -e; printf -v "b c" x; echo after''')

group("Transforms of whole arrays")
t("attributes_per_element", r'''b=(x y z); printf '<%s>' "${b[@]@a}"; echo "|"; declare -A m=([k]=v [j]=w); printf '<%s>' "${m[@]@a}"; echo "|"; declare -i i=3; printf '<%s>' "${i[@]@a}" "${i[*]@a}"; echo "|"; s=; printf '<%s>' "${s[@]@a}" x; echo "|"''')
t("attributes_of_empty_and_declared_arrays", r'''declare -a d; printf '<%s>' "${d[@]@a}" "${d[*]@a}" "${d@a}"; echo "|"; e=(); printf '<%s>' "${e[@]@a}" "${e[*]@a}" "${e@a}"; echo "|"; declare -A m; printf '<%s>' "${m[@]@a}"; echo "|"; printf '<%s>' "${u[@]@a}" "${u[*]@a}" x; echo "|"''')
t("assignment_form_is_a_word_list", r'''a=(1 2); printf '<%s>' "${a[@]@A}"; echo; printf '<%s>' "${a[*]@A}"; echo; declare -A m=([k]=v); printf '<%s>' "${m[@]@A}"; echo; declare -a d; printf '<%s>' "${d[@]@A}" "${d[*]@A}"; echo; e=(); printf '<%s>' "${e[@]@A}"; echo''')
t("assignment_form_of_scalars_and_positionals", r'''declare -i i=3; printf '<%s>' "${i[@]@A}"; echo; s=x; printf '<%s>' "${s[@]@A}"; echo; set -- a 'b c'; printf '<%s>' "${@@A}"; echo; printf '<%s>' "${*@A}"; echo''')
t("key_value_forms_of_empty_arrays", r'''declare -A m; printf '<%s>' "${m[@]@K}"; echo "|"; printf '<%s>' "${m[*]@K}"; echo "|"; x=(); printf '<%s>' "${x[@]@K}" "${x[@]@k}" "${x[@]@Q}"; echo "|"''')

group("Bad substitutions name the text being expanded")
e("the_double_quoted_string", r'''echo "a ${1a} b"; echo "pre ${%}"; echo "x ${a b}" "c ${#,}"; echo next''')
e("the_whole_unquoted_word", r'''echo a${x!}b; echo q'r'"${1a}"; echo next''')
e("only_the_quoted_part_of_a_word", r'''echo x"a ${a b}"y; echo next''')
e("assignments_here_strings_and_case", r'''x="a ${1a}" y=2; cat <<< "b ${1a}"; case "c ${1a}" in *) ;; esac; a=("d ${1a}"); echo next''')
e("inside_another_expansion", r'''echo ${x:-"a ${1a} b"}; echo next''')
e("a_here_document_body", "cat <<E\na ${#,} b\nE\necho next")
e("unknown_transformation_exits", r'''x=1; echo "a ${x@Z} b"; echo after''')

group("The length of $# and a lone operator")
t("operators_with_words_apply_to_hash", r'''echo "[${#%x}][${#+x}][${#=x}][${#:-x}][${#:+x}][${#/x/y}][${#::}][${#-x}][${#?x}][${#%%}][${###}][${##}][${#@}]"''')
e("lone_operators_are_bad", r'''for op in % + = / : , '~'; do eval 'echo "[${#'"$op"'}]"'; done; echo "[${#-}][${#?}]"''')
e("hash_pattern_removal", r'''set -- a b c; echo "${##'3'*}" "${###}" "${#%3}"''')

group("eval and source abandon only their own text")
e("eval_fails_and_the_line_goes_on", r'''eval 'echo ${1a}; echo same'; echo "n $?"; shopt -s failglob; eval 'echo *.nomatch'; echo "g $?"''')
e("every_discarding_error", r'''eval 'echo ${!x}'; echo "a $?"; x=5; eval 'echo ${x:1:-9}'; echo "b $?"; eval 'echo $((1/0))'; echo "c $?"; eval 'readonly r=1; r=2; echo in'; echo "d $?"''')
e("in_a_loop_and_a_function", r'''for i in 1 2; do eval 'echo ${1a}'; echo "in $?"; done; f() { eval 'echo ${#,}'; echo "inf $?"; }; f; echo "after $?"''')
e("source", r'''echo 'echo ${1a}; echo s2' > s.sh; source ./s.sh; echo "after $?"''')
e("under_set_e_the_failure_exits", r'''set -e; eval 'echo ${1a}'; echo "n $?"''')

group("Here-documents")
t("ansi_c_quotes_in_operands_are_text", "cat <<E\n${v-'x'} ${v-\"y\"} ${v-$'a\\tb'} ${v:-a'b'c} ${v-\\$q} $(echo $'c\\td') ${v-$(echo $'e\\tf')}\nE\necho \"${v-$'a\\tb'}\"")

group("Bad substitutions name the word as bash's parser left it")
e("ansi_c_quotes_are_single_quoted", r'''IFS=','; printf '<%s>' $'010'${#,,}; echo
echo $'a\tb'${x!}; echo "st=$?"
echo "$'a'${x!}"''')

group("Negative lengths of array slices")
e("offset_past_the_last_index_is_empty", r'''a=(x y z); echo "<${a[@]:3:-1}>" "<${a[*]:4:-2}>"
a=([5]=x [9]=y); echo "<${a[@]:10:-1}>"
a=(x); echo "<${a[@]:1:-1}>"
echo "<${a[@]:0:-1}>"; echo not reached''')
e("offset_inside_a_sparse_array", r'''a=([5]=x [9]=y); echo "<${a[@]:6:-1}>"; echo not reached
echo next''')
e("pattern_operands_of_nothing_are_not_expanded", r'''set -u; set --; a=(); echo "[${*/a/$x}]" "[${@#$y}]" "[${a[@]/b/$z}]" "[${a[@]^$w}]"
z=; echo "[${z/a/$w}]"; echo not reached''')
e("quoted_patterns_on_the_count", r'''set -- a b c d e f g h i j k l; echo ${##1} ${#%2} ${#%%2} ${###} ${#%%} ${##"1"} ${#%"2"} "${##"1"}" ${##*} ${##\*} ${##"*"}
set --; echo ${##"*"} ${###"*"} ${##"0"}x ${#%%"0"}x''')

group("Bad substitutions in operands name the operand")
e("innermost_operand_word", r'''echo "${a:=${?^^}}"
echo x${a:-${?^^}}y
echo "${a:-z${?^^}}"
echo ${a:-"${?^^}"}
echo ${a:-${b:-${?^^}}}
echo done''')
e("patterns_removed_from_nothing_are_not_expanded", r'''a=; echo "[${a#$(echo side >&2)}]" "[${u%$(echo side >&2)}]"
set -u; echo "[${a#$zz}]"; a=x; echo "[${a#$(echo side >&2)}]"
b=; echo "[${b/$(echo side >&2)/$(echo rep >&2)}]" "[${b^$(echo up >&2)}]"''')

group("Locale, LINENO and positional defaults")
t("length_counts_bytes_in_a_c_locale", r'''s="ação"; a=(日本)
echo "${#s} ${#a[0]}"
LC_ALL=C; echo "${#s} ${#a[0]} $(( ${#s} + 0 ))"
LC_ALL=; LC_CTYPE=POSIX; echo "${#s}"
LC_CTYPE=C.UTF-8; echo "${#s}"
LC_CTYPE=; LANG=C; echo "${#s}"
f() { local LANG=C.UTF-8; echo "in=${#s}"; }; f; echo "out=${#s}"''')
t("lineno_ignores_assignments_until_unset", r'''LINENO=50; echo $LINENO
f() { echo $LINENO; }
LINENO=7; f
unset LINENO; echo "[$LINENO]"; LINENO=3; echo $LINENO''')
e("positional_default_assignment_fails_its_line", r'''echo ${1:=x}; echo same line
echo after $?''')
t("null_ifs_joins_unquoted_name_and_key_lists", r'''v1=1 v2=2; IFS=; printf "<%s>" ${!v*} ${!v@}; echo
a=(x y z); printf "<%s>" ${!a[*]} ${!a[@]}; echo
IFS=:; printf "<%s>" ${!v*} ${!a[*]}; echo''')
t("lineno_of_a_redirection_only_command", r'''echo a
> f$LINENO
echo f*''')

group("A word that is one parameter")
t("lone_parameter_words_split_and_glob_as_bash_does", r''': > f1; : > f2; v='f*'; w='a b'; e=''; n='x[1]'; p='-n'; q='a\b'
printf '<%s>' $v "$v" $w "$w" $e "$e" ${w} "${w}" $n $p $q; echo
IFS=:; c='a:b c'; printf '<%s>' $c "$c" ${c}; echo; IFS=; printf '<%s>' $c $w; echo; unset IFS
set -- 'x y' z; printf '<%s>' $1 "$1" ${2} "$2" $3 "$3"; echo
shopt -s extglob; g='@(f1)'; printf '<%s>' $g; echo
[ $e ] || echo empty-is-no-word; [ "$e" ] || echo quoted-empty''')
