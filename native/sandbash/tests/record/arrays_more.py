"""Arrays as bash lists them: associative arrays in bash's hash order (for
`${!m[@]}`, `${m[@]}`, `declare -p`, `for`), whole-array transformations
(`@A`, `@K`, `@k`) and slices with a negative length."""

tools("grep", "seq", "cut")

group("Associative array order")
t("assoc_keys_in_bash_order", r'''declare -A m=([a]=1 [b]=2 [c]=3 [k]=v [j]=w); echo ${!m[@]}; echo ${m[@]}''')
t("assoc_order_after_unset_and_update", r'''declare -A m; m[one]=1; m+=([two]=2 [three]=3); m[one]+=x; unset 'm[two]'; declare -p m; for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done''')
t("assoc_readded_key_moves", r'''declare -A m=([x]=1 [y]=2); unset 'm[x]'; m[x]=3; echo "${!m[@]}"''')
t("assoc_many_keys_after_growth", r'''declare -A m; for i in $(seq 1 2100); do m[k$i]=1; done; echo "${!m[@]}" | cut -d' ' -f1-8; echo ${#m[@]}''')
t("assoc_words_and_numbers", r'''declare -A c; for w in the cat the dog a cat the end 10 9 100; do c[$w]=$(( ${c[$w]:-0} + 1 )); done; for k in "${!c[@]}"; do echo "$k ${c[$k]}"; done''')
t("assoc_utf8_keys", r'''declare -A m=([é]=1 [ü]=2 [a]=3 [日本]=4); echo "${!m[@]}"''')
t("assoc_in_set_listing", r'''declare -A zz=([q]=1 [p]=2 [r]=3); set | grep '^zz=' ''')
t("local_assoc_order", r'''f() { local -A h=([red]=1 [green]=2 [blue]=3); echo "${!h[@]}"; }; f''')

group("Whole-array transformations")
t("at_a_on_arrays", r'''a=(1 "two 2"); declare -A as=([a]=1 [b]="x y"); echo ${a@A}; echo ${a[@]@A}; echo ${a[*]@A}; echo ${as[@]@A}''')
t("at_a_on_scalars_and_elements", r'''n=5; declare -i i=3; declare -r ro=1; export ex=2; a=(1 "two 2"); echo ${n@A} ${i@A} ${ro@A} ${ex@A}; echo ${a[1]@A}''')
t("at_k_pairs", r'''a=(1 "two 2"); declare -A as=([a]=1 [b]="x y"); echo ${a[@]@K}; echo "${as[*]@K}"; printf '<%s>' "${as[@]@k}"; echo; n=5; echo "${n@K}"''')

group("Slices")
e("array_slice_negative_length", r'''a=(1 2 3); echo "${a[@]:1:-1}"; echo after''')
t("array_slice_negative_length_out_of_range", r'''a=(1 2 3); echo "[${a[@]:5:-1}]"''')
e("positional_slice_negative_length", r'''set -- a b c; echo ${@:1:-1}; echo after''')
t("string_slice_negative_length", r'''x=abcdef; echo ${x:1:-1} ${x: -3:-1}''')

group("Arithmetic errors as bash words them")
e("arith_value_too_great_for_base", r'''echo $((1 + 08 + 2)); echo after''')
e("arith_bad_digit_in_variable", r'''m=08; echo $((m + 1))''')
e("arith_bad_base_digits", r'''echo $((2#12))''')
e("arith_operand_expected", r'''echo $(( 3 + * 4 ))''')
e("arith_missing_operand_at_end", r'''echo $((1 +))''')
e("arith_operand_where_operator_belongs", r'''echo $((1 2))''')
e("arith_division_by_zero_keeps_blanks", r'''(( 5 % 0  )); echo rc=$?; echo $(( 5 / 0 ))''')
t("arith_bases_still_work", r'''echo $((0x1f + 010 + 2#101 + 36#z + 64#_@))''')

group("Associative arrays in arithmetic")
t("assoc_counting_in_arithmetic", r'''declare -A count; for w in b a c a b a; do ((count[$w]++)); done; for k in "${!count[@]}"; do echo "$k ${count[$k]}"; done''')
t("assoc_arithmetic_reads_and_assigns", r'''declare -A m=([x]=4 [y]=5); echo $(( m[x] * m[y] )); (( m[z] = m[x] + 1 )); echo ${m[z]}; k="x"; (( m[$k] += 10 )); echo ${m[x]}''')
t("indexed_arithmetic_still_numeric", r'''a=(10 20 30); i=1; echo $(( a[i+1] + a[0] )); (( a[i] *= 2 )); echo ${a[@]}''')

group("Quoting transformations")
t("at_q_control_characters", r'''x=$'a\tb\nc'; echo "${x@Q}"; y="it's"; echo "${y@Q}"; z=$'\e[0m'; echo "${z@Q}"''')
t("at_p_prompt_escapes", r'''HOME=$PWD; mkdir -p sub; x='\w \W \101 \[x\] \\ \s \v \V $((1+2)) "q" \q'; echo "${x@P}"; cd sub; echo "${x@P}"; y='\D{%%}'; echo "${y@P}"''')

group("indirection through all the elements of an array")
e("indirect_through_all_elements", r'''empty=(); declare -A m=()
echo "[${!empty[@]+ALT}] [${!empty[@]-DEF}] [${!empty[*]+ALT}] [${!empty[@]:+ALT}] [${!empty[@]:-DEF}] [${!m[@]-DEF}] [${!empty[@]}]"
a=(v); v=5; echo "${!a[@]-d}" "${!a[*]:+alt}"
b=(""); echo "[${!b[@]-d}]"; echo next
c=(x y); echo "${!c[@]-d}"; echo not here
echo "next $?"''')

group("Keyed items bash reads in a compound assignment")
t("compound_keyed_append_and_brackets_in_keys", r'''a=([1]=x [1]+=y); declare -p a
b=([0]=5 [b[0]]=x); declare -p b
declare -A h=([k]=a [k]+=b [x]=1); declare -p h
c=('[1]=q' [2]=r); declare -p c''')
e("list_to_an_element_is_an_error", r'''a=(1 2); a[0]=(3 4); echo st=$?
echo next $?; declare -p a''')
t("assoc_keyed_append_in_an_appended_list", r'''declare -A A=([hello]=2); A+=([hello]+=:34 [hello]+=:56); declare -p A
a=(1 2); a+=([1]+=x [5]+=y); declare -p a''')

group("Keyed associative lists")
e("keyed_assoc_list_refuses_words_without_keys", r'''declare -A a=([j]=1 2 3); declare -p a
declare -A b; b=([x]=1 y 2); declare -p b
declare -A c=(k v k2 v2); declare -p c
declare -A d=([x]=1); d+=(y 2); declare -p d''')

group("Arrays as prefix assignments; tildes in keyed items")
e("array_prefix_assignment_is_a_string", r'''x=1; B=($x "y  z") bash -c 'echo "[$B]"'
f(){ echo "[$B] [${B[1]}]"; }; B=(p q) f; declare -p B
b[0]=2 bash -c 'echo "[$b]"'; echo "st=$?"; g(){ echo "g[${b[0]}]"; }; b[0]=3 g; echo "[${b[@]}]"''')
t("tilde_in_keyed_items", r'''HOME=/h; a=([0]=~ [1]=~:~ ~ x:~ [4]=a:~/b); echo "${a[@]}"
c=(~ [3]=~); echo "${c[@]}"; a+=([9]=~:~); echo "${a[9]}"
declare -A b; b=([k]=~ [j]=~:~ [m]=x:~); echo "${b[k]} ${b[j]} ${b[m]}"''')

group("An array name as a prefix assignment")
t("hides_the_array_from_a_builtin", r'''declare -a arr=(1 2); arr=3 declare -p arr; declare -p arr; arr=3 eval 'declare -p arr'; arr=3 command declare -p arr''')
t("hides_the_array_from_a_function", r'''arr=(1 2); f() { declare -p arr; echo "${arr[@]} ${#arr[@]}"; arr=9; arr[1]=x; declare -p arr; }; arr=3 f; declare -p arr''')
t("appends_to_element_zero", r'''arr=(1 2); arr+=3 declare -p arr; declare -A m=([k]=v [0]=z); f() { declare -p m; }; m+=w f; declare -p m''')
t("drops_the_attributes", r'''declare -ai n=(1 2); n=5+1 declare -p n; declare -u up=abc; f() { echo $up; }; up=xyz f; echo $up''')
t("reaches_a_program_as_a_string", r'''arr=(1 2); arr=3 sh -c 'echo "$arr"'; declare -A m=([a]=b); m=s sh -c 'echo "$m"' ''')
e("a_readonly_array_stays", r'''readonly ro=(1 2); ro=3 true; echo "st=$?"; declare -p ro''')
t("a_special_builtin_keeps_it", r'''arr=(1 2); arr=3 :; declare -p arr''')
