"""Commands a tight loop repeats, which the interpreter runs on a shorter path:
`(( ))`, `name=value`, `name=$(( ))` and `name+=text`, and arithmetic that is
compiled once and re-evaluated. Each case changes, part-way through a loop, what
decides how such a command behaves (a variable's value or attributes, an option,
a trap), so the short path and the general one must agree on every turn."""

tools("printf", "echo", "env", "grep", "cat", "od", "head", "tr", "seq", "sort", "sed", "cut")

group("arithmetic whose variables change")
t("values_that_are_not_plain_numbers", r'''for v in 7 010 0x1f 2#101 '1+2' '' ' 5 ' -3 +4 'y' '(2)'; do
  x=$v; y=6
  for ((i=0;i<2;i++)); do r=$((x + i)); done
  printf '%s=%s ' "[$v]" "$r"
done; echo''')
e("a_variable_becomes_an_array_or_is_unset", r'''x=1
for ((i=0;i<4;i++)); do
  (( i == 1 )) && x=(10 20)
  (( i == 2 )) && unset x
  (( i == 3 )) && declare -A x=([0]=5 [k]=6)
  echo "$i: $((x + 1)) $(( x += 2 )) ${x[*]}"
done''')
e("unset_under_nounset", r'''set -u
n=3
for ((i=0;i<n;i++)); do
  (( i == 2 )) && unset n
  echo "i=$i s=$(( s = i * 2 ))"
done
echo not reached''')
e("division_by_zero_part_way", r'''d=2
for ((i=0;i<5;i++)); do
  (( i == 3 )) && d=0
  x=$(( 10 / d )); echo "i=$i x=$x"
  (( y = 10 % d )); echo "st=$? y=$y"
done
echo end''')
e("exponents_shifts_and_wrapping", r'''for ((i=0;i<3;i++)); do
  echo $(( 2 ** (i + 62) )) $(( -2 ** 2 )) $(( 1 << (i + 63) )) $(( 9223372036854775807 + i ))
  echo $(( -9223372036854775807 - 1 - i / 1 )) $(( (-9223372036854775807 - 1) % -1 ))
  echo $(( 2 ** (i - 1) ))
done''')
t("side_effects_happen_once", r'''i=0; n=0
for ((k=0;k<5;k++)); do a=$((i++)); b=$((++n)); ((c+=a+b)); done
echo "$i $n $a $b $c"
x=5; echo $(( (x=3) + x )) $(( x++ + x )) $(( x-- - x )) $x
y=1; (( y ? (z=4) : (w=9) )); echo "z=$z w=${w-unset}"''')
t("short_circuit_does_not_assign", r'''for ((i=0;i<3;i++)); do (( i > 0 && (j = i * 10) )); echo "$? j=${j-unset}"; done
(( 0 || (k = 2) )); echo "k=$k"; (( 1 || (m = 2) )); echo "m=${m-unset}"''')
e("readonly_and_integer_part_way", r'''for ((i=0;i<4;i++)); do
  (( i == 1 )) && declare -i n
  (( i == 2 )) && readonly r=1
  n=i+1; r=$((i * 3)); s=$(( i ))
  echo "i=$i n=$n r=$r s=$s"
done
echo after''')
t("case_attributes_and_appends", r'''declare -u up; declare -l low
for ((i=0;i<3;i++)); do up=ab$i; low=CD$i; s+=x$i; up+=q; done
echo "$up $low $s"
declare -l mixed=AB; mixed+=CD; echo $mixed
a=(1 2); a+=x; echo "${a[*]}"
declare -i k=3; k+=4; echo $k''')
t("literal_values", r'''for ((i=0;i<2;i++)); do a=; b=a:b; c=~; d=x=y; e=a,b.c/d-e+f@g%h; f=:~; done
printf '[%s]' "$a" "$b" "$c" "$d" "$e" "$f"; echo''')
t("allexport_part_way", r'''for ((i=0;i<3;i++)); do (( i == 1 )) && set -a; v$i=x 2>/dev/null; w=$i; done
[[ $(export -p) == *'declare -x w="2"'* ]] && echo exported; declare -p w''')

group("what the shell around the command sees")
e("errexit_and_err_trap", r'''for ((i=0;i<3;i++)); do (( i )) ; echo "i=$i st=$?"; done
trap 'echo "ERR at $LINENO: $?"' ERR
(( 0 ))
x=$((0))
set -e
for ((i=3;i>=0;i--)); do (( i )); echo "i=$i"; done
echo not reached''')
e("xtrace_part_way", r'''for ((i=0;i<3;i++)); do
  (( i == 1 )) && set -x
  x=$((i * 2)); y=lit; (( z = x + 1 ))
done
set +x; echo "$x $y $z"''')
e("debug_trap_part_way", r'''for ((i=0;i<3;i++)); do
  (( i == 2 )) && trap 'echo "DEBUG: $BASH_COMMAND"' DEBUG
  x=$((i + 1))
done
trap - DEBUG; echo $x''')
t("last_argument_and_pipestatus", r'''echo a b; x=1; echo "[$_]"
false | true; (( 1 )); echo "${PIPESTATUS[*]} [$_]"
false | true; x=$((2)); echo "${PIPESTATUS[*]} [$_]"
(( 0 )); echo "$? ${PIPESTATUS[*]}"''')
e("line_numbers_after_fast_commands", r'''x=1
(( y = 2 ))
z=$((3))
echo "$LINENO"
(( 1 / 0 ))
w=$(( 2 /
0 ))
echo "$LINENO $x $y $z"''')
t("namerefs", r'''a=1; declare -n r=a
for ((i=0;i<3;i++)); do r=$((r + i)); (( r += 10 )); done
echo "$a $r"
declare -n e=arr[1]; arr=(0 0); e=$((5 * 2)); echo "${arr[*]}"''')
t("condition_of_while_and_if", r'''i=0; while (( i < 3 )); do (( i++ )); done; echo $i
until (( i == 0 )); do i=$((i - 1)); done; echo $i
if (( i == 0 )); then echo zero; fi
(( i )) || echo "or ran"; (( i )) && echo "and ran"; ! (( i )); echo "bang $?"''')
t("large_appends", r'''s=; for ((i=0;i<2000;i++)); do s+=abcdefghij; done; echo ${#s}''')

group("values copied from parameters")
e("parameters_as_values", r'''f() { a=$1; b=${2}; c=$3; d=${10}; e=$10; g=$0; h=$_; printf '[%s]' "$a" "$b" "$c" "$d" "$e" "$g" "$h"; echo; }
f x "y z" '' 4 5 6 7 8 9 ten
v="a b"; w=$v; arr=(p q); x=$arr; y=${arr}; declare -A m=([0]=k); z=$m
printf '[%s]' "$w" "$x" "$y" "$z"; echo
unset u; q=$u; r=${u}; printf '[%s]' "$q" "$r"; echo
RANDOM=7; s=$RANDOM; t=$LINENO; printf '[%s]' "${#s}" "$t"; echo
set -u; g() { k=$2; echo "k=$k"; }; g one; echo not reached''')

group("[ ] and test on plain operands")
tools("touch", "test")
e("test_forms_and_their_errors", r'''x=5; u=; for f in '[ $x -lt 10 ]' '[ "$x" -ge 5 ]' '[ " 5" -eq 5 ]' '[ +5 -eq 5 ]' '[ 5x -lt 10 ]' '[ a -lt b ]' '[ 99999999999999999999 -gt 1 ]' \
  '[ -z "" ]' '[ -n "" ]' '[ -z ]' '[ -n ]' '[ ! ]' '[ = ]' '[ "" ]' '[ "$u" ]' '[ $u ]' '[ a = a ]' '[ a == b ]' "[ 'a b' != a ]" '[ ! = x ]' \
  '[ $nope -lt 5 ]' 'test 3 -eq 3' 'test' 'test -z x' '[ 1 = 1' '[ a = a ] ]' '[ -n x ]; echo "$_"' 'test 1 -ne 2; echo "$_"' '[ 1 = 2 ]; echo "${PIPESTATUS[@]}"'; do
  eval "$f"; echo "$f -> $?"
done''')
e("operands_that_split_or_glob", r'''touch a1 a2; x='a*'; [ $x = 'a*' ]; echo $?; y='1 2'; [ $y = '1 2' ]; echo $?; [ "$y" = '1 2' ]; echo $?
IFS=-; z=a-b; [ $z = a-b ]; echo $?; IFS=' '; [ $z = a-b ]; echo $?; set -- 4 '' 'p q'; [ $1 -eq 4 ]; echo $?; [ $2 ]; echo $?; [ "$3" = 'p q' ]; echo $?''')
e("test_as_a_function_or_disabled", r'''for i in 1 2 3; do
  [ $i -eq 2 ] && test() { echo "fn $*"; return 7; }
  test $i -eq $i; echo "test: $?"; [ $i = $i ]; echo "[: $?"
done
unset -f test; test 1 -eq 1; echo $?; enable -n test; test 1 -eq 1; echo "disabled: $?"; enable test; test 2 -gt 1; echo $?''')
e("test_under_errexit_nounset_and_traps", r'''trap 'echo "ERR at $LINENO"' ERR
for i in 1 2; do [ $i -eq 2 ] || echo "not two"; [ $i -eq 1 ] && echo one; done
[ 1 -eq 2 ]; echo after
trap - ERR; set -e; [ 1 -eq 2 ] && echo no; [ x = y ] || echo yes; (set -u; [ "$nope" = x ]; echo unreached); echo "sub: $?"; ( [ 1 -eq 2 ]; echo unreached ); echo "sub: $?"
set -x; [ 2 -gt 1 ]; test a = a; set +x; echo done''')
t("loop_of_tests", r'''i=0; n=0; while [ $i -lt 2000 ]; do i=$((i+1)); [ $((i % 7)) -eq 0 ] && n=$((n+1)); [ "$i" != 1000 ] || echo "at $i: $n"; done; echo "$i $n"''')
e("function_names_written_with_quotes", r'''
'f' () { :; }; echo $?; "g"() { :; }; echo $?; f\x() { :; }; echo $?; h'i'() { :; }; echo $?; function 'k' { :; }; echo $?; 12() { echo twelve; }; 12; declare -F''')

group("function calls with plain arguments")
e("calls_and_what_they_leave", r'''f() { echo "$#:$1:${2-unset}:$_"; return $(( $# % 3 )); }
f a b; echo "st=$? _=$_ ps=${PIPESTATUS[*]}"; f; echo "_=$_"; x='a b'; y='*'; touch q1 q2
f $x; f "$x"; f $y; f "$y" "$nope"; f $nope z; set -- 1 '2 3' ''; f "$@"; echo "st=$?"; f "$1" $1 '$1' "lit"
my-fn.x() { echo "dashed $*"; }; my-fn.x 1 2; for i in 1 2 3; do f $i; done; echo "_=$_"
g() { local v=$1; echo "${FUNCNAME[*]} ${BASH_LINENO[*]} $LINENO $v"; }; for i in 1 2; do g $i; done; h() { g "$@"; }; h 9''')
e("calls_as_the_function_changes", r'''f() { echo one $1; }
for i in 1 2 3 4; do
  f $i
  [ $i = 1 ] && f() { echo two $1; }
  [ $i = 2 ] && unset -f f
  [ $i = 3 ] && f() { echo three $1; return 4; }
done; echo "st=$?"
alias f='echo aliased'; f 5; true; echo "_=$_"; false; echo "st=$? _=$_"; : x y; echo "_=$_"''')
e("calls_under_errexit_and_in_subshells", r'''f() { echo "in f $1 $SHLVL $BASH_SUBSHELL"; return $1; }
f 0; x=$(f 0); echo "[$x]"; (f 0); f 0 | cat; echo "$(f 0)"
set -e; f 0; if f 3; then :; else echo "cond $?"; fi; f 2 || echo "or $?"; f 5; echo unreached''')
e("recursion_through_calls", r'''d() { if [ $1 -lt 50 ]; then d $(( $1 + 1 )); else echo "depth $1 ${#FUNCNAME[@]}"; fi; }; d 0
c() { local n=$1; [ $n -eq 0 ] && return 0; c $(( n - 1 )); }; c 90; echo "st=$?"
fact() { if [ "$1" -le 1 ]; then r=1; else fact $(( $1 - 1 )); r=$(( r * $1 )); fi; }; fact 20; echo $r''')
e("arithmetic_arguments", r'''f() { echo "$#:[$1][${2-}][${3-}] _=$_"; }
x=3; for i in 1 2 3; do f $((x * i)) $(( i - 5 )) $((x)); done; echo "_=$_"
f $(( i++ )) $(( i )); f $((i+=2)) $i; f $(( (i) * 2 )) $(( x > 2 )) $((2 ** 3))
IFS=1; f $((10 + 1)) $((4 - 7)); IFS=-; f $((4 - 7)) $((3)); unset IFS; f $((011)) $((0x10)) $((2#11))
v='1 + 1'; f $((v)) $(( v * 3 )); w=oops; f $((w)); w='2 +'; f $((w)) after; echo "st=$?"
f $((7 / 0)) never; echo "st=$?"
set -u; f $((x + 1)); f $((undefined_here + 1)) never; echo unreached''')
e("return_break_and_continue_written_plainly", r'''f() { [ "$1" = a ] && return; [ "$1" = b ] && return 0009; [ "$1" = c ] && return 300; false; return; }
for w in a b c d; do f $w; echo "$w:$? _=$_"; done
for i in 1 2 3; do for j in a b c; do [ $j = b ] && continue 2; [ $i = 3 ] && break 5; echo $i$j; done; done; echo "st=$? _=$_"
n=0; while :; do n=$((n+1)); [ $n -lt 3 ] && continue; break; done; echo "n=$n st=$? _=$_"
g() { for x in 1 2; do return 4; done; echo no; }; g; echo "g=$?"; h() { ( return 7 ); echo "sub $?"; echo "$(return 5; echo no)$?"; }; h
p() { while [ $# -gt 0 ]; do case $1 in --) shift; break;; -*) ;; *) break;; esac; shift; done; r=$#; q=$?; }; p -a -- x y; echo "$r $q"
set -- 1 2 3; z=$#; false; s=$?; echo "$z $s"
trap 'echo trapped' RETURN; k() { return 2; }; k; echo "k=$?"; trap - RETURN
return 1; echo "top=$?"; break; echo "brk=$?"''')

group("quoted literal assignments")
e("quoted_values_and_what_makes_them_more", r'''a='x y'; b="p  q"; c="a'b"; d='a"b'; e="$a"; f="a\$b"; g=''; h=""; i="a\"b"; j='a\b'; k="a\\b"
printf '[%s]' "$a" "$b" "$c" "$d" "$e" "$f" "$g" "$h" "$i" "$j" "$k"; echo
l="a`echo b`c"; m='*'; n="~"; o="{1,2}"; p="'"; q='"'; r="a"'b'; s='a'"b"; t="é ü"
printf '[%s]' "$l" "$m" "$n" "$o" "$p" "$q" "$r" "$s" "$t"; echo "_=$_"
declare -u u; u="abc"; declare -i v; v="3+4"; declare -l w; w='XY'; readonly ro="k"; ro="z"; echo "st=$? $u $v $w $ro"
set -a; ex="exp"; set +a; env | grep '^ex='; x[1]="el"; x="zero"; declare -p x
for s in 1 2; do msg="turn $s"; echo "$msg"; done; FUNCNAME="fn"; echo "st=$?"''')

group("echo of plain operands")
e("echo_operands_and_options", r'''x='a  b'; y='*'; z=; n=-n; set -- p 'q r'
echo; echo "$_"; echo a 'b  c' "d" "$x" $z "$z" end; echo "_=$_"
echo -n no-newline; echo; echo "$n" x; echo $n y; echo -e 'a\tb'; echo -E 'a\tb'; echo '-e' z; echo -- -n
echo 'back\slash' "q\"uote" 'a\nb'; echo $y "$y" $1 "$2" "$3" ${1} "${2}"; echo é "ü $x"
shopt -s xpg_echo; echo 'a\tb' "c\\d"; shopt -u xpg_echo; echo 'a\tb'
IFS=:; v=a:b; echo $v "$v"; IFS=' '; w='p q'; echo $w; unset IFS; echo $w
raw=$'\xff\xfe'; echo "$raw" | od -An -c''')
e("echo_where_its_output_goes", r'''f() { echo "in f $1"; }
echo one; s=$(echo two); echo "[$s]"; echo three | cat; f 1 | cat; (echo four)
exec 3>&1; exec >/tmp/out.txt; echo five; echo six; exec >&3; cat /tmp/out.txt
exec >/dev/null; echo gone; exec >&3; echo back; { echo seven; } >/dev/null; echo eight >&2
echo() { builtin echo "fn: $*"; }; echo nine; unset -f echo; enable -n echo; echo ten; enable echo; echo eleven
alias echo='printf "%s|\n"'; echo twelve; unalias echo; echo thirteen''')
e("echo_under_options_and_traps", r'''set -u; echo "${v:-dflt}" ok; echo "$unset_var" after; echo not reached''')
e("echo_with_xtrace_and_errexit", r'''set -e; echo a; trap 'echo trapped' EXIT; echo b; set -x; echo c; set +x; echo d''')
e("echo_and_assign_text_with_parameters", r'''x='a  *'; n=3; set -- one two three four five six seven eight nine ten
echo "line $n of ${n}" "$1x" "$10" "${x}y" "a$x-b" "$x$n" "é$n" "$n$" "$n $ m" "${#x}" "${x:-d}" "$@" "$?"
s="v=$x/$n"; t="${n}${n}"; echo "$s" "$t" "[$nope]" "[${nope}]"; u="pre $nope post"; echo "$u"
for i in 1 2 3; do msg="turn $i of $n"; echo "$msg" "$i$i"; done
declare -u up; up="x $n"; echo "$up"; set -u; echo "ok $n"; echo "bad $nope"; echo unreached''')

t("unset_names_read_as_zero", r'''for ((i=0;i<3;i++)); do r=$(( u + i )); s=$(( U + i )); (( i == 1 )) && u=10 U=20; echo "$r $s $(( SECONDS >= 0 )) $(( RANDOM >= 0 )) $(( LINENO ))"; done
f() { local z; echo $(( z + 1 )); declare -a q; echo $(( q + 2 )); }; f
set -u; echo $(( u + 1 )); echo $(( nope + 1 )); echo not reached''')

group("parameters written in arithmetic text")
t("positional_values_of_every_shape", r'''f() { r=$(( $1 * 2 )); s=$(( 10 - $1 )); (( t = $1 + $# )); echo "[$1] $r $s $t $(( -$1 )) $(( $1 ** 2 ))"; }
for v in 3 0 07 '3+4' ' 5 ' -3 +4 y 12 '(2)' 0x10; do y=9; f "$v"; done
f 9 8 7''')
e("empty_unset_and_nounset", r'''f() { echo $(( $1 + 1 )); echo "st=$?"; }
f ''
f
echo $(( ${9} + 1 ))
set -u
echo $(( $zz + 1 ))
echo not reached''')
t("expansion_reads_values_from_before_the_expression", r'''x=5; echo $(( x=3, $x )) $x
n=2; echo $(( n += $n, n )) $n
i=0; while (( i < $# + 3 )); do (( i++ )); done; echo $i
false; echo $(( $? + 1 )) $(( $? ))''')
t("joined_and_braced_forms", r'''set -- 1 2 3 4 5 6 7 8 9 10 11
a=4 b=5
echo $(( $1$2 )) $(( ${1}0 )) $(( $11 )) $(( ${11} )) $(( ${a}*$b )) $(( $a$b + 1 ))
echo $(( $a[0] )) 2>&1
echo $(( $# ? $a : $b )) $(( ${#a} + $a ))''')
t("names_and_special_variables", r'''abc=4 x=abc; echo $(( $x + 1 ))
declare -i k=7; echo $(( $k * 2 ))
arr=(6 7); echo $(( $arr + 1 ))
RANDOM=1; r=$(( $RANDOM >= 0 )); echo $r
echo $(( $LINENO > 0 ))
declare -n ref=a; a=3; echo $(( $ref * 2 ))''')
t("in_a_loop_whose_values_change", r'''f() { s=$(( s + $1 )); }
s=0; for v in 1 2 3 x 4 '' 5 '1+1'; do f "$v" 2>/dev/null; done; echo $s
n=3; for ((i=0; i<$n; i++)); do (( i == 1 )) && n=5; echo -n "$i "; done; echo''')

group("local in a function called over and over")
t("values_of_every_kind", r'''f() { local n=$1; echo "$_ $n"; local a b=2 c="x y" d=$1 e='q r' g="$1-$2" h=; echo "$_|$a|$b|$c|$d|$e|$g|$h"; declare -p a b c n h; }
f 5 6; f 'x  y*'; echo "[${n-unset}][${b-unset}]"''')
t("existing_locals_and_globals", r'''x=1
f() { local x; echo "[${x-unset}]"; x=3; local x; echo $x; local x=4; echo $x; }
f; echo $x
g() { local k=$1; (( $1 > 0 )) && g $(( $1 - 1 )); echo -n "$k "; }; g 5; echo
export e=1; h() { local e=2; printf '%s\n' "$(env | grep ^e=)"; }; h; env | grep ^e=''')
e("names_that_are_not_plain", r'''readonly r=1
f() { local r=2; echo "r $? $r"; local FUNCNAME=1; echo "fn $?"; local IFS=,; set -- a,b; echo "$1"; local _=3; echo "$?"; local 1x=2; echo "bad $?"; }
f
local a=1; echo "top $?"''')
t("attributes_already_given", r'''f() { local -i n=1; local n=2+3; echo $n; local u; declare -u u; local u=abc; echo $u; declare -n r=t; local r=5; echo "$t"; local -a arr=(1 2); local arr=9; declare -p arr; }
f''')
t("under_allexport_and_with_a_function_named_local", r'''set -a; f() { local v=1; env | grep '^v='; }; f; set +a
local() { echo "my local $*"; }; g() { local w=2; echo "${w-unset}"; }; g
unset -f local; enable -n local; g 2>&1; enable local; g''')

group("affixes and lengths taken in a loop")
t("every_operator_on_paths_and_names", r'''for s in /usr/local/lib/libfoo.so.1 foo.tar.gz noext /trailing/ '' 'a b*' .hidden 'x%y#z'; do
  a=${s##*/} b=${s#*/} c=${s%.*} d=${s%%.*} e=${#s} f=${s#x} g=${s%[0-9]} h=${s##*[.]} k=${s%%[!/]*}
  printf '[%s] ' "$a" "$b" "$c" "$d" "$e" "$f" "$g" "$h" "$k"; echo
done''')
t("quoted_in_tests_and_locals", r'''f() { local base="${1##*/}" ext=${1##*.} n=${#1}; [ "${1%/*}" = /a/b ] && echo same; echo "$base $ext $n"; }
f /a/b/c.txt; f plain; f ''
set -- /x/y.z; r=${1%.*}; echo "$r ${#1} ${1#/}"''')
t("values_that_change_what_the_pattern_means", r'''s=héllo.wörld; a=${#s}; b=${s#*.}; echo "$a $b"
LC_ALL=C; a=${#s}; echo "$a"; LC_ALL=C.UTF-8
shopt -s extglob; t=aaab.c; echo "${t##+(a)} ${t%.@(c|d)}"; shopt -u extglob
p='*/'; u=/a/b; echo "${u##$p} ${u##"$p"}"
unset v; w=${v#x}; echo "[$w]"; arr=(x/1 y/2); z=${arr##*/}; echo "$z"
set -u; q=${nope#x}; echo not reached''')
t("nocasematch_and_globs_do_not_change_removal", r'''shopt -s nocasematch nocaseglob; s=ABC.txt; a=${s%.TXT} b=${s#abc}; echo "$a $b"
shopt -s failglob; c=${s%.*}; echo "$c"''')

group("case in a loop")
t("shapes_of_patterns", r'''for w in k15 k1 k5 k k55 kk5 abcab ab aba xabcx abc '' a*b 'k 5' é5 k1é; do
  r=
  case "$w" in k*5) r+=A;; esac
  case $w in ab*ab) r+=B;; esac
  case $w in *bc*) r+=C;; esac
  case $w in **) r+=D;; esac
  case "$w" in a\*b) r+=E;; esac
  case $w in "a*"b) r+=F;; esac
  case $w in k1*) r+=G;; esac
  case $w in *5) r+=H;; esac
  case $w in ab*a*) r+=I;; esac
  case $w in k[0-9]*) r+=J;; esac
  printf '%s=%s ' "[$w]" "$r"
done; echo''')
t("patterns_as_written_while_options_change", r'''shopt -s extglob
for i in 1 2 3 4 5 6; do
  (( i == 2 )) && shopt -s nocasematch
  (( i == 4 )) && shopt -u nocasematch
  (( i == 5 )) && { x='K*'; shopt -u extglob; }
  for w in Kb kb '[k' 'k]' '-a' '~' "*" ab; do
    case $w in k?) printf 1;; \[*) printf 2;; *]) printf 3;; -[a-c]) printf 4;; ~) printf 5;; "*") printf 6;; @(a|b)b) printf 7;; $x) printf 8;; *) printf 0;; esac
  done; echo " $i"
done''')
t("words_of_every_kind", r'''x=abc; set -- p q
for i in 1 2; do
  case k$i in k1) echo one;; k2) echo two;; esac
  case "$x" in a*) echo "a $i";; esac
  case '$x' in \$x) echo lit;; esac
  case ${x#a} in bc) echo cut;; esac
  case ${#x} in 3) echo len;; esac
  case "$1-$2" in p-q) echo pos;; esac
  case $x in "$x") echo self;; esac
  case ~ in /*) echo home;; esac
done''')
t("options_that_change_matching", r'''for o in nocasematch extglob; do shopt -s $o; for w in ABC abc aXc; do case $w in a*c) echo "$o $w y";; *) echo "$o $w n";; esac; done; shopt -u $o; done
shopt -s extglob; case aab in +(a)b) echo ext;; esac; case "x|y" in x\|y) echo bar;; esac''')

group("option-parsing loops")
t("shift_and_the_parameter_count", r'''p() { while [ $# -gt 0 ]; do case $1 in -a) a=1;; -b) b=$2; shift;; --) shift; break;; -*) x=$1;; *) break;; esac; shift; done; r=$#; echo "a=$a b=$b x=$x r=$r rest=$*"; }
p -a -b val -z -- f1 f2; p -b; p; p x y
set -- 1 2 3; shift 2; echo "$_ $# $*"; shift 0; echo "$_ $?"; shift; echo "$# $?"; shift; echo "st=$?"
set -- a b; shift 3; echo "st=$? $#"; shopt -s shift_verbose; shift 3; echo "st=$?"; shift -1; echo "st=$?"; shift x; echo "st=$?"''')
e("counts_in_tests", r'''f() { [ "$#" -eq 2 ] && echo two; [ $# = 0 ] && echo none; false; [ $? -eq 1 ] && echo one; [ "$?" = 0 ] && echo zero; }
f a b; f; shift() { echo "my shift"; }; set -- 1; shift; echo $#''')

group("mapfile of whole inputs")
t("lines_delimiters_and_skips", r'''printf 'a\nb\n\nc' > f; mapfile x < f; declare -p x; mapfile -t x < f; declare -p x
mapfile -t -s 2 y < f; declare -p y; mapfile -d , -t z <<< "1,2,,3"; declare -p z
mapfile -d '' n < <(printf 'p\0q\0r'); declare -p n; printf 'a\0b\nc\n' | { mapfile m; declare -p m; }
mapfile -t -O 5 x < f; declare -p x; mapfile e < /dev/null; declare -p e; mapfile -t w <<< ""; declare -p w''')
t("many_lines_and_a_long_one", r'''for ((i=0;i<5000;i++)); do echo "line $i"; done > big; mapfile -t a < big; echo ${#a[@]} "${a[0]}" "${a[4999]}"
head -c 100000 /dev/zero | tr '\0' x > long; echo >> long; echo end >> long; mapfile -t b < long; echo ${#b[@]} ${#b[0]} ${b[1]}
seq 1 20 | { mapfile -t -n 3 c; mapfile -t d; echo "${c[*]} | ${d[*]}"; }
seq 1 6 | mapfile -t -C 'echo cb' -c 2 q; echo done''')
t("a_new_read_replaces_what_the_array_held", r'''a=(x y z w v); a[9]=far; printf '1\n2\n' > f; mapfile -t a < f; declare -p a
declare -A m=([k]=v); mapfile m < f; echo "st=$?"; s=scalar; mapfile -t -O 1 s < f; declare -p s; mapfile -t -O 0 a < f; declare -p a
b=(p q r); mapfile -t -O 1 b < /dev/null; declare -p b; readonly r=1; mapfile r < f; echo "st=$?"; declare -i n; mapfile -t n < f; declare -p n''')

group("[[ ]] in a loop")
t("regexes_written_plainly_and_with_expansions", r'''for s in id-15 id-5 id-25x ID-35 'id-$' a.b axb 'a|b' ''; do
  r=
  [[ $s =~ ^id-([0-9]+)5$ ]] && r+="A${BASH_REMATCH[1]}"
  [[ "$s" =~ a.b ]] && r+=B
  [[ $s =~ a\.b ]] && r+=C
  [[ $s =~ "a.b" ]] && r+=D
  [[ $s =~ ^id-\$$ ]] && r+=E
  re='^(a|b)\|?b$'; [[ $s =~ $re ]] && r+=F
  [[ $s =~ a'|'b ]] && r+=G
  [[ $s =~ ^$ ]] && r+=H
  printf '%s=%s ' "[$s]" "$r"
done; echo
[[ x =~ ( ]]; echo "bad $?"; shopt -s nocasematch; [[ ID-35 =~ ^id-([0-9]+)5$ ]] && echo "nocase ${BASH_REMATCH[*]}"''')
t("operands_of_every_kind", r'''x=abc; set -- 'a b' '*'
for i in 1 2; do
  [[ k$i == k1 ]] && echo "one $i"
  [[ "$x" == a* ]] && echo "glob $i"
  [[ $1 == "a b" ]] && echo "pos $i"
  [[ $2 == '*' && -n $2 ]] && echo "star $i"
  [[ ${x#a} == bc && ${#x} -eq 3 ]] && echo "ops $i"
  [[ ~ == /* ]] && echo "tilde $i"
  [[ -z "" && ! -z $x ]] && echo "unary $i"
done''')

t("single_tests_whose_options_and_values_change", r'''x=file.TXT; u=
for i in 1 2 3 4; do
  (( i == 2 )) && shopt -s nocasematch
  (( i == 3 )) && { shopt -u nocasematch; x='a b'; u=set; }
  (( i == 4 )) && shopt -s extglob
  r=
  [[ $x == *.txt ]] && r+=A
  [[ $x != *.txt ]] && r+=B
  [[ ! $x == *.txt ]] && r+=C
  [[ -n $u ]] && r+=D
  [[ -z "$u" ]] && r+=E
  [[ $x == a?b ]] && r+=F
  [[ $x == [[:alpha:]]* ]] && r+=G
  [[ $x =~ ^(a) ]] && r+="H${BASH_REMATCH[1]}"
  [[ ! $x =~ TXT$ ]] && r+="I${#BASH_REMATCH[@]}"
  echo "$i $r"
done''')
t("tests_and_what_the_shell_around_them_sees", r'''f() { local BASH_REMATCH; [[ abc =~ (b) ]]; declare -p BASH_REMATCH; }
for i in 1 2; do
  true | false; [[ x == x ]]; echo "st=$? ps=${PIPESTATUS[*]}"
  [[ x =~ [ ]]; echo "bad=$?"
  [[ ab =~ z ]]; declare -p BASH_REMATCH
  f; declare -p BASH_REMATCH
  [[ $i == 1
  ]] && echo "line $LINENO"
done
BASH_REMATCH=scalar; [[ a =~ z ]]; declare -p BASH_REMATCH''')
e("tests_under_errexit_and_nounset", r'''set -u; x=1
for i in 1 2; do [[ $x == 1 ]] && echo "ok $i"; done
set -e; [[ $x == 2 ]] || echo "or"; [[ $x =~ ^1$ ]]; [[ $x == 2 ]]; echo "not here"''')
e("test_of_an_unset_variable_under_nounset", r'''set -u; for i in 1 2; do [[ $nope == x ]]; echo "not here"; done''')

group("substrings taken in a loop")
t("offsets_and_lengths_of_every_sign", r'''s=abcdefghij; u=héllo
for i in 0 3 9 10 11; do
  a=${s:i} b=${s:i:2} c=${s: -i} d=${s:(-i):2} e=${s:i%4:3} f=${s:$i:1} g=${u:i%5:2} h=${s:i:0}
  printf '[%s] ' "$a" "$b" "$c" "$d" "$e" "$f" "$g" "$h"; echo
done
x=${s:2:-3}; echo "$x"; set -- 12345; y=${1:1:2}; echo "$y"; unset z; w=${z:1}; echo "[$w]"
v=${s:1:-20}; echo "after $v"''')
e("what_falls_back", r'''s=abcdef; i=1
a=${s:i++:2}; echo "$a $i"; c=${s:-x}; echo "$c"; d=${s:=y}; echo "$d"
arr=(one two); e=${arr:1:1}; echo "$e"; f=${s:1/0}; echo "not here"''')

group("array elements assigned in a loop")
t("assoc_elements_from_mixed_subscripts", r'''declare -A m; k=key; i=3
for ((j=0;j<6;j++)); do m[k$((j%2))]=$j; m[$k$j]="v $j"; m[${k}_x]=$((j*j)); m[a.b-c/d]=lit; done
m[$i$k]=$i; m[$((i+1))]="$k"
for x in "${!m[@]}"; do echo "$x=${m[$x]}"; done | sort''')
t("indexed_elements_from_arithmetic_subscripts", r'''a=(x y z); n=2
for ((j=0;j<4;j++)); do a[j]=v$j; a[$j+4]=w$j; a[n+j]=$n; done
declare -p a''')
t("elements_whose_array_changes_kind_midway", r'''declare -A m; a=(1)
for ((j=0;j<4;j++)); do
  (( j == 1 )) && { unset m; declare -A m=([old]=1); }
  (( j == 2 )) && declare -u -A m
  (( j == 3 )) && a=scalar
  m[k$j]=val$j; a[j]=e$j
done; declare -p m a''')
e("element_of_a_readonly_or_integer_array", r'''declare -ia ia=(1); declare -rA r=([a]=1)
for ((j=0;j<2;j++)); do ia[j]=2+$j; done; declare -p ia
r[b]=2; echo "not here"''')
e("element_subscripts_with_side_effects_or_errors", r'''a=(); declare -A m; i=0
for ((j=0;j<3;j++)); do a[i++]=$j; m[$((i+=1))]=$j; done; declare -p a m
a[-1]=last; declare -p a
a[-9]=bad; echo "not here"''')
e("assoc_key_that_expands_to_nothing", r'''declare -A m; m[$u]=x; echo "not here"
m[""]=y; echo "nor here"
m=([$u]=x [a]=1 ["$u"]+=y); echo "st=$?"; declare -p m
m[$u]+=z; echo "nor here"
echo "goes on"''')
e("assoc_key_that_expands_to_nothing_under_errexit", r'''set -e; declare -A m; m[$u]=x
echo "not here"''')

group("read in a loop over a file")
t("lines_of_every_shape", r'''printf 'a b c\n  lead  trail  \none\\ two three\ncont \\\nnext line\nback\\\\\n\n\tx\ty\nnul\0byte\nlast' > f
n=0; while read x y; do n=$((n+1)); printf '%s [%s] [%s] %s\n' $n "$x" "$y" "$_"; done < f
echo "end [$x] [$y]"
while read -r l; do printf '<%s>' "$l"; done < f; echo "[$l]"
while read; do printf '{%s}' "$REPLY"; done < f; echo
while read -r; do printf '{%s}' "$REPLY"; done < f; echo''')
t("what_decides_a_read_changes_midway", r'''seq 1 8 | sed 's/$/ a:b c/' > f; i=0
while read x y z; do
  i=$((i+1))
  case $i in
    2) IFS=: ;;
    3) IFS= ;;
    4) unset IFS; declare -i y ;;
    5) declare +i y; declare -u z ;;
    6) declare +u z; y=(arr) ;;
    7) readonly x ;;
  esac
  echo "$i [$x] [$y] [$z] ${y[*]}"
done < f 2>&1''')
t("other_readers_of_the_same_input", r'''seq 1 10 > f
while read a; do read b; head -n 1; echo "[$a $b]"; done < f
{ read a; cat; } < f | tr '\n' ' '; echo
while read -r a; do echo "$a"; read -r b <&3; echo "3:$b"; done < f 3< f | head -n 6''')
t("long_lines_across_chunks", r'''head -c 70000 /dev/zero | tr '\0' x > f; echo >> f; echo short >> f; head -c 140000 /dev/zero | tr '\0' y >> f; echo end >> f
while read -r l; do echo "${#l} ${l: -3}"; done < f''')
t("read_in_functions_and_pipes", r'''f() { local line n=0; while read -r line; do n=$((n+1)); done; echo "$n [$line]"; }
seq 1 5 > f; f < f; seq 1 3 | f; printf 'a\nb' | f
g() { local -n ref=$1; read -r ref; }; echo named > f; g v < f; echo "[$v]"''')

group("and-or lists of plain commands in a loop")
e("statuses_errexit_and_traps_midway", r'''n=0; x=
for ((i=0;i<6;i++)); do
  [ $i -eq 1 ] && x=set
  [ -n "$x" ] && n=$((n+1)) || echo "no x at $i: $? ${PIPESTATUS[*]} [$_]"
  (( i == 3 )) && trap 'echo "ERR at $i"' ERR
  [ $i -eq 4 ] && false
  [ $i -gt 1 ] || [ $i -eq 0 ] && echo "or-and $i $?"
done
echo "n=$n s=$? ${PIPESTATUS[*]}"
set -e
for k in 1 2 3; do [ $k = 2 ] && continue; [ $k = 9 ] || echo k$k; done
true && false && echo never
echo not reached''')
e("return_break_and_declined_commands_midway", r'''f() { local n=$1; [ $n -le 0 ] && return $2; f $((n-1)) $2; }
f 3 7; echo "r=$? [$_]"
g() { [ "$1" = a ] && return; [ "$1" = b ] && echo "b $(echo sub)" && return 3; echo "other $1"; }
g a; echo "a=$?"; g b; echo "b=$?"; g c; echo "c=$?"
i=0; while :; do i=$((i+1)); [ $i -ge 3 ] && echo "at $i" | cat && break; done; echo "i=$i"
j=0; while [ $j -lt 3 ] && [ "$j" != x ]; do j=$((j+1)); done; echo "j=$j"
h() { [ $# -gt 0 ] && shift && echo "left $#" && h "$@"; }; h 1 2 3; echo "h=$?"''')
t("underscore_and_pipestatus_through_calls_and_locals", r'''f() { local a=1 b="x y"; echo "[$_]"; : "$@"; }
f p q; echo "[$_] ${PIPESTATUS[*]}"
g() { local v; echo "[$_]"; return 3; }; g; echo "[$_] $? ${PIPESTATUS[*]}"
false | true | false; f 1; echo "${PIPESTATUS[*]} [$_]"
declare -p _ | cut -c1-20; export _=e; f z; echo "[$_]"; declare -p _''')
