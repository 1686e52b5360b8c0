"""${!name}: the value of the variable whose name is name's value; unset, declared-without-value
and invalid names, and `set -u`."""

group("indirect")
e("indirect_unset_and_declared", r'''declare v; echo "[${!v}] rc=$?"
declare -a w; echo "[${!w}] rc=$?"
f(){ local l; echo "[${!l}] [${!l:-d}]"; }; f
declare -i n; n="${!n}"; echo "n=$n"
echo "${!u}"; echo same-line
echo "next rc=$?"''')
e("indirect_invalid_names", r'''v='a b'; echo "${!v}"; echo "rc=$?"
v=''; echo "${!v:-def}"; echo "rc=$?"
v='1a'; echo "${!v}"; echo "rc=$?"
v='a[1'; echo "${!v}"; echo "rc=$?"
v='!'; echo "${!v}"; echo "rc=$?"
v='x y'; echo "${!v:-d}"; echo "rc=$?"''')
e("indirect_specials_and_arrays", r'''v='@'; set -- x y; echo "${!v}"
v='#'; echo "${!v}"
v='a[@]'; a=(1 2); echo "${!v}"
v=1; echo "${!v}" "${!v@Q}" "${#!v}"
unset v; echo "${!v:-def}" "${!v-def2}"''')
e("indirect_nounset", r'''set -u; v=zz; echo "${!v:-d}"; ( echo "${!v}"; echo in ); echo "rc=$?"
( v="a[1]"; echo "${!v}"; echo in ); echo "rc=$?"
( declare w; echo "${!w}"; echo in ); echo "rc=$?"
( echo "${!u}"; echo in ); echo "rc=$?"''')

group("Indirection with an operator after [@]")
e("indirect_all_elements_with_operator", r'''a=(v); v=hi; echo "${!a[@]@Q}" "${!a[*]@Q}" "${!a[@]@U}"
echo "[${!a[@]#h}] [${!a[@]/h/H}] [${!a[@]^}] [${!a[@]:1}]"
declare -A A=([x]=y); echo "[${!A[@]@a}]"
b=(); echo "[${!b[@]-default}] $?"
echo "[${!nope[@]-default}] $?"
echo after $?''')
t("indirect_attributes_through_a_subscript", r'''a=(1 2); r="a[0]"; echo "[${!r@a}]"
declare -A d=([k]=1); r='d[k]'; echo "[${!r@a}]"
declare -A A=([x]=y); echo "[${!A@a}]"
b=([1]=x); echo "[${!b@a}]"
declare -i n=3; r=n; echo "[${!r@a}]"
declare -n nr=n; echo "[${!nr@a}] [${nr@a}]"''')
e("indirect_assign_default_to_the_target", r'''r=v; echo ${!r:=x}; echo v=$v r=$r
r=w; echo ${!r=y}; echo w=$w r=$r
r='q[2]'; echo ${!r:=z}; echo not here
echo next $?
r=1; echo ${!r:=z}''')

group("Indirection through the special parameters")
e("indirect_through_at_and_star", r'''a=b; set -- a; echo "${!@}" "${!*}" ${!@}; set --; echo "[${!@}][${!*}]"; set -- a c; IFS=:; echo "${!*}"; echo unreached''')
e("indirect_through_at_with_two_words", r'''set -- a c; echo "${!@}"; echo unreached''')
t("indirect_through_other_specials", r'''set -- x y; x=X; y=Y; echo ${!#} ${!1}; v=val; : v; echo ${!_}; n=2; echo ${!n}''')
