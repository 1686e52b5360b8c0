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
