"""Negative subscripts count from the end; one before the start of the array (or any on
a scalar or an unset name) warns "NAME: bad array subscript" and expands to nothing, in
${a[i]} and in arithmetic."""

group("negative subscripts")
e("expansion_before_start", r'''arr=(); echo "[${arr[-1]}] rc=$?"
unset u; echo "[${u[-1]}]"
s=x; echo "[${s[-2]}] [${s[-1]}] [${s[0]}]"
a=(1 2); echo "[${a[-3]}] [${a[-2]}] [${a[-1]}]"
a=(1 2); echo "[${a[-3]:-d}]"
printf '<%s>' ${arr[-1]%a} ${arr[-1]/#a} "${arr[-1]: -2}"; echo
declare -A A; echo "[${A[-1]}]"''')
e("arithmetic_before_start", r'''s=5; echo $(( s[-1] )) $(( s[0] ))
a=(); echo $(( a[-1] ))
let "--n" 'arr[n]'; echo "st=$?"
b=(1 2); echo $(( b[-3] )) $(( b[-2] )) $(( b[-1] ))''')
e("assignment_before_start", r'''s=5; s[-1]=3; echo "${s[@]}"; (( s[-1]=4 )); echo "${s[@]}"
a=(1 2); echo $(( a[-5]=1 )); echo "${a[@]}"
a[-1]=9; echo "${a[@]}"''')

group("Negative keys in a compound assignment count from the items so far")
e("negative_keys_in_a_list", r'''a=(p q [-1]=z [-3]=w); declare -p a; n=-3; v=val; b=(p [$n]=$v); declare -p b; c=([-1]=z); echo "status=$?"; declare -p c''')
e("negative_keys_appended", r'''a=(1 2 3); a+=([-1]=z); declare -p a; a+=([-1]+=w [-9]+=x); declare -p a; a=(1 2); a+=([-5]=z); echo "status=$?"; declare -p a''')
e("negative_keys_in_declare_and_local", r'''declare -a d=(x [-2]=y [-1]=z); declare -p d; f() { local -a b=(x [-1]=y); declare -p b; }; f; declare -A h=([-1]=z); declare -p h''')
