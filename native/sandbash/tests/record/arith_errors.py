"""Arithmetic evaluated as bash's expr.c evaluates it: while it parses, so side effects
made before an error stay; which error wins and its "error token is" text; number
constants; recursion through variables' values; and what an error ends in each context
($(( )), (( )), let, [[ -eq ]], for ((;;)), subscripts, integer variables, declare/local -i)."""

tools("printf", "echo")

group("messages")
e("conditional_errors", r'''echo $(( 1 ? ))
echo $(( 1 ? 2 ))
echo $(( 1 ? 2 : ))
echo $(( 1 ? 2 : 3 : 4 ))
echo $(( 1 ? : 2 ))
echo $(( 0 ? 1 ))
echo $(( x ? ( 1 : 2 ) ))
echo $(( 1 ? 2 , 3 : 4 )) $(( 0 ? 2 : 3 ? 4 : 5 ))''')
e("operand_and_operator_errors", r'''echo $(( 1 + ))
echo $(( 1 2 ))
echo $(( a b ))
echo $(( 1 @ 2 ))
echo $(( @ ))
echo $(( 1 & ))
echo $(( , 1 ))
echo $(( 1 , ))
echo $((1**))
echo $(( 3 * -- ))
echo $((--))
echo $(( 1 .5 ))
x=ab:cd; echo $(( x ))
echo $(( é ))
echo $(( 1 + é ))''')
e("assignment_errors", r'''echo $(( 1 = 2 ))
echo $(( 3 ? 4 : 5 = 6 ))
echo $(( 1 ? 2 : a = 3 ))
echo $(( (1) = 2 ))
echo $(( --x = 3 ))
echo $(( x++ = 3 ))
echo $(( 1 == 1 + x /= 1 == 1 ))
echo $(( 1 || i >>= 1 ))
(( ~i <<= 1 )); echo "st=$?"
x=3; echo $(( x = ))
echo $((a=))''')
e("increment_errors", r'''echo $((4++))
echo $(( x++ ++ ))
echo $(( ++x++ ))
echo $(( --x-- ))
echo $(( ++4 )) $(( --4 )) $(( - -4 ))
x=5; echo $(( x++ + ++x )) $x''')
e("missing_paren", r'''echo $(( (1 + 2 3) ))
echo $(( (1 ) ))
x=1; echo $(( (x = 2 ]) )); echo $x''')
e("division_and_power", r'''echo $(( 1/0 ))
echo $(( 5 % 0 ))
x=2; echo $(( x /= 0 )); echo $x
x=2; echo $(( x %= 0 ))
echo $(( 2 ** -1 ))
echo $(( !1 ** -1 ))
echo $(( 2**0**-1 ))
echo $(( 0 && 2**-1 ))
echo $(( 0 && 1/0 )) $(( 1 || 1/0 )) $(( 0 ? 1/0 : 2 )) $(( 1 ? 2 : 1/0 ))
echo $(( -9223372036854775808 / -1 )) $(( -9223372036854775808 % -1 ))
x=-9223372036854775808; (( x /= -1 )); echo $x''')
e("number_constants", r'''echo $(( 08 ))
echo $(( 1 + 09 + 2 ))
echo $(( 2# ))
echo $(( 2#+1 ))
echo $(( 2##1 ))
echo $(( 2#1#1 ))
echo $(( 2#@ ))
echo $(( 1#1 ))
echo $(( 65#1 ))
echo $(( 0x#1 ))
echo $(( 08#1 ))
echo $(( 0x )) $(( 010 )) $(( 0x1F )) $(( 36#zZ )) $(( 64#zZ )) $(( 64#@_ )) $(( 1e3 ))''')
e("error_token_trailing_blanks", r'''echo $(( 1 ? 2   ))
(( 1 = 2	))
let '1 +  ' 'x = '
(( 2 ** -1  ))''')

group("side effects before an error")
e("assignments_before_error_stay", r'''x=1; echo $(( x = 2 , 1/0 )); echo $x
x=1; echo $(( (x=2) + )); echo $x
x=1; let "x=5, 1+"; echo "$? $x"
x=1; (( x=5, 1+ )); echo "$? $x"
x=1; (( x=5, 1 2 )); echo "$? $x"
i=0; (( i++, i++, 08 )); echo "$? $i"
i=0; (( a[i++] = i, 1/0 )); echo "$? $i ${a[*]}"''')
e("short_circuit_skips", r'''x='y=5'; echo $(( 0 ? x : 1 )) ${y-unset}
x='y=5'; echo $(( 1 ? 1 : x )) ${y-unset}
x='y=5'; echo $(( 0 && x )) $(( 1 || x )) ${y-unset}
echo $(( 0 && a[1/0] )) $(( 1 || (z=3) )) ${z-unset}
echo $(( 0 && 09 ))''')
e("lhs_subscript_after_rhs", r'''i=0; a[i]=i++; echo "${!a[@]} $i"
i=0; (( b[i]=i++ )); echo "${!b[@]} $i"
echo $(( c[1]++ )) $(( c[1]++ )) ${c[1]}
declare -A A; echo $(( A[k]++ , A[k] )); (( A[x y] = 2 )); declare -p A''')

group("recursion through values")
e("value_recursion", r'''x='y+1' y='x'; echo $(( x )); echo next
a='a'; echo $(( a + 1 )); echo next
x="1/0"; echo $(( x + 1 ))
x="1+"; echo $(( 2 + x ))
x="a b"; echo $(( x + 1 ))
x=" 3 "; y=; z="  "; echo $(( x + y + z ))''')
e("value_recursion_in_let", r'''n=n+1; let n; echo "st=$?"
n='n'; (( n )); echo "st=$?"''')

group("what an error ends")
e("expansion_error_ends_the_line", r'''echo $((1/0)); echo same-line
echo next-line
f(){ echo $((1/0)); echo in-f; }; f; echo after-f
echo status=$?
for ((i=0;i<2;i++)); do echo $((i/0)); echo in; done; echo after-loop
echo status=$?''')
e("command_error_keeps_going", r'''(( 1/0 )); echo "st=$?"
let "1/0" "2"; echo "st=$?"
let "1+"; echo "st=$?"
let; echo "st=$?"
[[ 1 -eq 1/0 ]]; echo "st=$?"
[[ 1/0 -eq 1 ]]; echo "st=$?"
for ((i=0; i<1/0; i++)); do echo x; done; echo "st=$?"
x=1/0; (( x )); echo "st=$?"''')
e("subscript_error_ends_the_shell", r'''(( a[1/0] )); echo "st=$?"
echo not-reached''')
e("subscript_error_in_let", r'''let "a[1/0]"; echo "st=$?"
echo not-reached''')
e("subscript_error_in_subshell", r'''( (( a[1/0] )); echo in ); echo "st=$?"
( [[ a[2+] -eq 1 ]]; echo in ); echo "st=$?"
( x='a[1/0]'; (( x )); echo in ); echo "st=$?"
( echo $(( a[1/0] )); echo in ); echo "st=$?"''')
e("nounset_in_arithmetic", r'''set -u; ( (( zz )); echo in ); echo "st=$?"
( let zz; echo in ); echo "st=$?"
( [[ zz -eq 1 ]]; echo in ); echo "st=$?"
( (( a[zz] )); echo in ); echo "st=$?"
( echo $(( 0 && zz )); echo in ); echo "st=$?"
echo $(( zz )); echo not-reached''')
e("local_integer_error_ends_the_shell", r'''f0(){ local -i b='%d'; echo in; }; f0; echo "ret=$?"
echo not-reached''')
e("declare_integer_error", r'''declare -i z="1+"; echo "s=$?"
echo not-reached''')
e("integer_assignment_error", r'''declare -i z; z="1+"; echo "s=$?"
echo not-reached''')
e("integer_errors_in_subshells", r'''( f(){ declare -i z="1+"; echo "s=$?"; }; f; echo out ); echo "st=$?"
( declare -i z; printf -v z '1+'; echo in ); echo "st=$?"
( declare -i z; read z <<< '2+'; echo in ); echo "st=$?"
( a=(1 2); a[1/0]=3; echo in ); echo "st=$?"
( declare -ai arr; arr=(1 2+ 3); echo in ); echo "st=$?"
( declare -i z; z=4; z+=1/0; echo in ); echo "st=$? z=$z"''')

group("let arguments")
e("let_status_and_arguments", r'''let a=1 b=0; echo "$?"; let a=0 b=1; echo "$?"
let a = 1; echo "$?"
let -1; echo "$?"
let -- -1; echo "$?"
let --; echo "$?"
let x=1 -- y=2; echo "$? $x $y"
let ''; echo "$?"; let ' '; echo "$?"; let 'x++' 'x++'; echo "$? $x"
let 1 , 0; echo "$?"''')

group("substring offsets")
e("substring_offset_errors_name_the_parameter", r'''x=abc; echo ${x:1/0}; echo same
echo ${x:1:1/0}
set -- a b; echo ${*: a  b }
a=(1 2); echo ${a[@]:1/0}
echo ${1:2+}
echo next''')
e("substring_of_unset_evaluates_nothing", r'''unset v; echo "[${v:1/0}] [${v:y=5}] [$y] [${v:1/0:2}]"
a=(); echo "[${a[@]:1/0}] [${a[0]:1/0}]"; unset b; echo "[${b[@]:1/0}]"; declare -A A; echo "[${A[@]:1/0}]"
echo "[${9:1/0}]"; x="x y z"; printf '<%s>' ${v:x}; echo
set --; echo "[${@:1/0}]"
v=; echo "[${v:1/0}]"''')

group("assignments that fail")
e("readonly_in_every_context", r'''readonly r=1
(( r++ )); echo "st=$?"
(( r = 2, s = 3 )); echo "st=$? s=${s-unset}"
let r=2 t=3; echo "st=$? t=${t-unset}"
for ((r=0;r<1;)); do :; done; echo "st=$?"
for ((i=0;i<2;r++)); do i=9; done; echo "st=$?"
f() { (( r += 1 )); echo "f st=$?"; }; f
[[ $(( 1 )) -eq 1 ]] && echo ok
declare -A m; readonly m; (( m[k] = 1 )); echo "st=$?"
a=(1); readonly a; (( a[0] = 2 )); echo "st=$? ${a[*]}"
echo $(( r = 5 )); echo not reached''')

group("quotes in arithmetic text")
e("single_quotes_stay_and_are_an_error", r'''echo $(( '1' + 2 ))
(( '1' )); echo "st=$?"
echo $[ '1' ]
echo $(( $'1' ))
echo $(( ${x:-'1'} + 1 ))
echo after''')
e("double_quotes_go", r'''x=3; echo $(( "1" + 2 )) $(( "$x" * 2 )) $(( "1 + 2" * 3 )) $(( ${y:-"4"} + 1 ))
echo $(( "1\"" ))
echo after''')
e("backslashes_as_in_double_quotes", r'''x=2; echo $(( \$x ))
echo $(( \1 ))
echo $(( x\
+1 ))''')
e("pattern_operands_keep_their_quotes", r'''x=1a; echo $(( ${x%'a'} + 1 )) $(( ${x%"a"} + 2 ))''')
e("indexed_subscripts", r'''a=(5 6 7); echo ${a["1"]} $(( a["2"] ))
echo ${a['1']}
echo after
a['1']=x
echo after2
a[\1]=x
a[$'1']=y
declare -p a''')
t("keys_of_associative_arrays_are_words", r'''declare -A m; m['k']=1; m["j"]=2; m[$'t']=3; declare -n r=m; r['via ref']=4; declare -p m''')
t("blanks_inside_an_assigned_subscript", r'''a[ 1 ]=w; a[	2	]=t; a[1 + 2]=s; i=0; a[ i ]=z; b=([1 + 1]=x [ 3 ]=y); declare -p a b
declare -A m; m[k 1]=v; m[ x ]=y; declare -p m
f() { a[1 + 1]=x; c=([1 + 1]=q); }; declare -f f''')
e("blanks_inside_subscripts_traced", r'''set -x; a[1 + 1]=x; declare -A m; m[k 1]=v; set +x
trap 'echo "$BASH_COMMAND"' DEBUG
a[3 * 1]=w''')
