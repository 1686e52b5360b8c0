"""Array subscripts as bash reads them: blanks and nested subscripts on the
left of `=` and `+=` at the start of a command and as keys of compound
assignments, sparse arrays, negative subscripts, `unset` of elements and of
`a[@]`, readonly arrays, and what a failed element assignment does to the
rest of the line."""

group("Subscripts with blanks")
t("blanks_in_indexed_subscript", r'''a[1 * 1]=x; a[ 2 ]=y; a[1 + 2]+=z; a[1 + 2]+=w; declare -p a''')
t("nested_subscripts", r'''i=(0 2); b[ i[1] ]=1; b[i[1] + 1]=2; declare -p b''')
t("blanks_in_assoc_keys", r'''declare -A m; m[a b]=1; m[ c ]=2; declare -p m; declare -A n=([x y]=1 [p  q]=2); declare -p n''')
t("blanks_in_compound_indexed_keys", r'''z=([1 + 1]=q [0]=p); declare -p z''')
t("blanks_after_keywords", r'''if true; then c[1 + 1]=v; fi; for i in 1; do d[i * 3]=w; done; declare -p c d''')
t("not_an_assignment_elsewhere", r'''echo a[1 2]=x; echo x[1]=y''')

group("Sparse arrays")
t("sparse_append_and_keys", r'''d=([2]=x [5]=y); d+=(z); declare -p d; echo ${#d[@]} ${!d[@]}; unset 'd[5]'; declare -p d''')
t("sparse_reindex", r'''x=(1 2 3); x[9]=6; echo "${!x[@]}"; x=("${x[@]}"); echo "${!x[@]}"''')
t("negative_subscripts", r'''g=(x y z); g[-1]=Z; echo "${g[-2]}" "${g[@]: -2}"; declare -p g''')
e("negative_subscript_out_of_range", r'''v=(a b c)
v[-4]=x; echo same line
echo "${v[*]}"''')
t("scalar_becomes_array", r'''s=str; s[1]=x; declare -p s; t=(a b); t=c; declare -p t''')
t("mixed_compound_keys", r'''declare -a n=([0]=a [3]=b c); declare -p n''')

group("unset and readonly")
t("unset_elements", r'''e=(1 2 3); unset 'e[1]'; declare -p e; unset 'e[-1]'; declare -p e; unset 'e[@]'; declare -p e''')
t("unset_assoc_elements", r'''declare -A z=([x]=1 [y]=2); unset 'z[x]'; declare -p z; unset 'z[*]'; declare -p z; z['@']=1; unset 'z[@]'; declare -p z''')
e("readonly_array_element", r'''readonly -a r=(1 2)
r[0]=5; echo same line
echo "s=$?"; declare -p r''')
e("unset_element_of_readonly", r'''f=(a b c); readonly f; unset 'f[0]'; echo "s=$?"; declare -p f''')
t("unset_function_with_odd_name", r'''function [() { :; }; unset [; echo $?; type -t [''')

group("Quoted keys in arithmetic")
t("arith_assoc_keys_lose_their_quotes", r'''declare -A A=([k]=42 ['a b']=1); (( x = A['k'] )); echo $x $(( A["a b"] + A[k] ))
(( A['j'] = 5 )); (( A["j"] += 2 )); echo ${A[j]}; declare -p A''')

group("Assigning through ${name[i]=...}")
t("assign_default_to_an_element", r'''s=abc; : ${s[1]=x}; declare -p s; echo ${s[2]:=z}; declare -p s; : ${t[3]=y}; declare -p t; declare -A h=([a]=1); : ${h[k]=v}; echo ${h[x y]=w}; declare -p h; declare -i n=1; echo ${n[1]=2+3}; declare -p n; a=(p q); : ${a[1]=no} ${a[-1]:=no}; declare -p a''')
e("assign_default_to_a_readonly_element", r'''readonly r=(1); : ${r[1]=x}; echo unreached; echo "${r[@]}"''')
