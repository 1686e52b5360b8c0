"""${a[@]@K} quotes associative keys as `declare -p` does; @k gives keys and values as
separate words; @K of scalars, indexed arrays and unset names."""

group("@K and @k")
t("assoc_keys_quoted", r'''declare -A A=([k]=v ["x y"]=z ["a*"]=1 ["\$d"]=2 [a-b]=5 ["q\"q"]=4 [a=b]=6 [1]=8 [-]=9)
echo "1: ${A@K}"; echo "2: ${A[@]@K}"; echo "3: ${A[@]@k}"; printf '<%s>' "${A[@]@k}"; echo''')
t("indexed_and_scalar", r'''x=abc; echo "${x@K}" "${x@k}"
a=(1 'b c'); echo "${a@K}"; echo "${a[@]@K}"; echo "${a[@]@k}"; printf '<%s>' "${a[@]@k}"; echo
unset u; echo "[${u@K}]"; x=''; echo "[${x@K}]"; x=$'a\nb'; echo "${x@K}"
declare -i n=3; echo "${n@K}"; set -- a 'b c'; echo "${@@K}" "${*@K}" "${1@K}"''')

group("@A of special and positional parameters")
t("assignment_form_of_special_parameters", r'''echo "<${?@A}>" "<${#@A}>" "<${-@A}>" "<${0@A}>" "<${@@A}>" "<${*@A}>"
set -- a "b c" "d'e"
echo "<${@@A}>" "<${*@A}>" "<${1@A}>" "<${3@A}>"
printf '[%s]' ${@@A}; echo
f() { echo "<${@@A}>"; }; f x''')
