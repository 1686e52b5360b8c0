"""`declare`/`typeset`/`local`/`export`/`readonly`: taking attributes away
(`+i`, `+x`, `+r`, `+a`), conversions between kinds, the case attributes
(`-l`, `-u`, `-c`), `-t`, `-g`, listings filtered by attribute, words given
as text (`declare 'a=(1 2)'`, `declare 'a[i]=v'`, through `command`),
integer arrays, and `unset` of locals of calling functions."""

tools("grep", "sort")

group("Taking attributes away")
t("plus_i_stops_arithmetic", r'''declare -i n=10; n+=5; declare +i n; declare -p n; n+=1; echo $n; declare +i m=1+2; declare -p m''')
t("plus_i_with_value_after_minus_i", r'''declare -i var=5; declare +i var=1+2; declare -p var''')
t("plus_x_and_plus_ix", r'''declare -ix v=10; declare -p v; declare +ix v; declare -p v; export w=1; export -n w; declare -p w''')
e("plus_r_is_refused", r'''declare -r ro=1; declare +r ro; echo "status $?"; declare -p ro; readonly -p | grep ro=''')
e("plus_a_refused_for_arrays", r'''declare -a a=(1 2); declare +a a; echo "s=$?"; declare -A m=([k]=v); declare +A m; echo "s=$?"; declare +a 'a=(3 4)'; echo "s=$?"; declare -p a m''')
t("plus_l_u_c_remove_case", r'''declare -u u=abc; declare +u u; u=xYz; declare -p u''')

group("Conversions")
e("indexed_to_assoc_refused", r'''declare -a a=(x y); declare -A a; echo "s=$?"; declare -p a''')
e("assoc_to_indexed_refused", r'''declare -A m=([k]=v); declare -a m; echo "s=$?"; declare -p m''')
t("scalar_to_arrays", r'''s=value; declare -a s; declare -p s; t=value; declare -A t; declare -p t''')
e("both_a_and_A", r'''declare -aA both=(x); echo "s=$?"; declare -p both''')
t("existing_array_stays_array", r'''a=(1 2 3); declare -a a; declare -p a; declare a; declare -p a''')

group("Case and trace attributes")
t("upper_does_not_change_old_value", r'''v=value; declare -u v; declare -p v; v=abcd; declare -p v; w=ab; declare -u w; w+=cd; declare -p w''')
t("capitalize", r'''v=value; declare -c v; declare -p v; v="aBcD eFg"; declare -p v; declare -c w=ÉCOLE; echo $w''')
t("lower_upper_together_cancel", r'''declare -lu z=AbC; declare -p z; declare -l y=ABC; declare -u y; y=Mixed; declare -p y''')
t("trace_attribute_shown", r'''declare -t tr=1; declare -rt rt=2; declare -p tr rt; declare -itx all=3; declare -p all''')
t("attribute_letter_order", r'''declare -xriltu v=1; declare -p v; declare -Arx m=([a]=1); declare -p m; declare -anx n=1 2>/dev/null; declare -ai ai=(1); declare -p ai''')

group("Listings")
t("filtered_by_one_attribute", r'''declare -r zzro=1; declare -t zztr=2; declare -rt zzboth=3; zzplain=4; echo r:; declare -pr | grep zz; echo t:; declare -pt | grep zz; echo rt:; declare -prt | grep zz''')
t("filtered_by_array_kind", r'''declare -a zza=(1); declare -A zzA=([k]=v); zzs=1; declare -pa | grep zz; declare -pA | grep zz; declare -a | grep zz''')
t("bare_listing_set_style", r'''zzs='a b'; zza=(1 "2 3"); declare -A zzm=([k]="v w"); declare -i zzi=4; declare | grep '^zz' ''')
t("bare_listing_has_functions", r'''zzf() { echo hi; }; declare | grep -A3 '^zzf' ''')
t("export_and_readonly_listings", r'''export zzx=1; readonly zzr=2; export | grep zz; readonly | grep zz; export -p | grep zz''')
t("local_lists_only_locals", r'''g=1; f() { local -i a=1; local b="x y"; local -a c=(1); local -p; echo --; local; }; f''')
t("assoc_keys_quoted_when_needed", r'''declare -A m; k="a b"; m[$k]=1; m[plain]=2; m['$x']=3; m['~t']=4; m['#c']=5; m['a=b']=6; declare -p m''')
t("lone_quote_value", r'''v="'"; declare | grep '^v='; echo "${v@Q}"''')

group("Printing forms")
e("p_with_assignment_is_not_found", r'''a=(1 2); declare -p 'a[0]'; echo "s=$?"; v=w; declare -p missing=$v; echo "s=$?"; declare -p a=1; echo "s=$?"''')
t("F_with_p", r'''f() { :; }; declare -F f; declare -pF f; declare -F; declare -p -F''')

group("Words given as text")
t("quoted_compound_with_a", r'''declare -a 'arr=(1 2 3)'; echo "${arr[@]} ${#arr[@]}"; X="a b"; declare -a 'b=(${X})'; echo "${b[@]} ${#b[@]}"''')
t("quoted_compound_ifs_prefix", r'''X="a,b"; IFS=, declare -a 'arr=(${X})'; declare -p arr''')
t("quoted_compound_existing_array", r'''arr=(old); declare 'arr=(new values)'; declare -p arr; declare -A m=([o]=1); declare 'm=([n]=v [p]=w)'; declare -p m''')
t("quoted_compound_scalar_stays_text", r'''declare 's=(a b)'; declare -p s; declare -a v='(x y)'; declare -p v''')
t("quoted_compound_attributes", r'''declare -au 'up=(ab Cd)'; declare -p up; declare -ai 'n=(1+2 3*4)'; declare -p n''')
t("quoted_element_assignments", r'''i=3; declare 'a[0]=x' 'a[i+1]=y' 'a[$i]=$z'; declare -p a; declare 'a[0]+=2'; declare -p a''')
t("quoted_assoc_element", r'''k="a b"; v=x; declare -A m; declare 'm[$k]=$v' 'm[$k]+=y'; declare -p m''')
t("element_assignment_compound_whole", r'''declare -a n=(1); declare -a 'n[0]=(9 8)'; declare -p n''')
t("quoted_append", r'''declare 'text=one'; declare 'text+=two'; declare -p text''')
t("bare_subscripted_name", r'''declare 'x[5]'; echo "${#x[@]}"; declare y[2]=v; declare -p y''')
t("quoted_global_from_function", r'''arr=(global); f() { local arr=scalar; declare -g 'arr=(new values)'; declare -p arr; }; f; declare -p arr''')
t("global_ignores_local_array", r'''arr=global; f() { local -a arr=(local); declare -g 'arr=(n v)'; declare -p arr; }; f; declare -p arr''')
t("global_g_sets_global_not_local", r'''x=1; f() { local x=2; declare -g x=3; echo "in $x"; }; f; echo "out $x"''')
t("command_and_builtin_prefixes", r'''v=world; command export w=$v; declare -p w; builtin declare -i n=2+3; declare -p n; command local l=1 2>&1; echo $?''')
t("function_shadowing_declaration", r'''declare() { echo "[$*] $#"; }; declare x=1 "y=a b" z[1]=q; unset -f declare; local() { echo "L[$*]"; }; local q=1; unset -f local''')
t("last_argument_of_declaration", r'''v=world; declare d=$v; echo "$_"; export e=1 f=2; echo "$_"; declare -a a=(1 2); echo "$_"''')
e("empty_subscripts", r'''declare 'b[]'; echo "s=$?"; declare 'c[]=x'; echo "s=$?"; declare d[]=y; echo "s=$?"''')
e("subscripts_refused_by_export", r'''export 'e[0]=1'; echo "s=$?"; readonly 'r[1]=2'; echo "s=$?"''')

group("Integer arrays")
t("integer_indexed_elements", r'''declare -ai a=(1 2 3); a[1]+=2; a[2]=2*5; a+=(4 value 6); declare -p a''')
t("integer_assoc_elements", r'''declare -Ai m=([a]=1 [b]=2); m[b]+=2; m[c]=3*3; m+=([d]=x); declare -p m''')
t("integer_array_non_number", r'''declare -ai a=(); a[0]=value; declare -p a''')

group("unset and scopes")
t("unset_local_drops_attributes", r'''f() { local -i v=10; unset v; declare -p v; v=2+3; echo $v; }; v=g; f; echo $v''')
t("unset_reaches_callers_locals", r'''a() { local v=first; b; echo "a: $v"; }; b() { local v=second; c; echo "b: $v"; }; c() { unset v; echo "c1: $v"; unset v; echo "c2: $v"; unset v; echo "c3: ${v-unset}"; v=new; }; v=global; a; echo "top: $v"''')

group("locals of readonly variables")
e("readonly_global_cannot_be_made_local", r'''readonly b=1
f() { local b; echo "st=$? $b"; local -a b=x; echo "st=$?"; declare b=2; echo "st=$? $b"; local c=1; echo "c=$c"; }
f; echo "ret=$?"
export e=1; readonly e
h() { local e=5; echo "h $? $e"; }; h''')
t("readonly_local_of_a_caller_can_be_shadowed", r'''f() { local -r z=1; g; echo "f z=$z"; }
g() { local z=2; echo "g st=$? $z"; z=3; echo "g z=$z"; }
f''')
e("readonly_messages_of_each_builtin", r'''readonly b=1
export b=2; echo "st=$?"
readonly b=3; echo "st=$?"
declare -x b=4; echo "st=$?"
typeset b=5; echo "st=$?"
export b; echo "st=$?"
f() { local -r c=1; export c=2; echo "f st=$?"; }; f''')

group("Assigning defaults through attributes")
t("default_takes_the_attributes", r'''f() { local -u c; echo ${c:=x} $c; }; f; declare -i n; echo ${n:=1+2} $n; declare -l l; echo "${l:=ABC}" $l; declare -n r=t; echo ${r:=val} $t''')
e("readonly_default_abandons_the_line", r'''readonly b=; echo ${b:=x} same; echo "same $?"
echo "next $?"
f() { readonly c=; echo ${c:=x} same; echo "same $?"; }; f; echo "same $?"
echo "next $?"''')
e("integer_default_errors", r'''declare -i n; echo ${n:=1/0}; echo same
echo "next $?"''')
e("unset_variable_in_an_integer_value_ends_the_shell", r'''set -u; declare -i v; v=x; echo "st=$?"
echo not reached''')
e("unset_variable_in_declare_i", r'''set -u; f() { declare -i v=x; echo "st=$?"; }; f
echo not reached''')

group("Attributes that bash refuses or keeps")
e("nameref_to_an_existing_value_that_is_no_name", r'''ref=1; typeset -n ref; echo "st=$? ref=$ref"; declare -p ref
r2='#'; declare -n r2; echo $?; declare -p r2
x=foo; declare -n x; echo $?; declare -p x''')
t("listing_by_attributes", r'''declare -i I=2; declare -ai J=(1); declare -ar AR=(1); declare -r R=1; export E=1
declare -ai; echo --; declare -ar; echo --; declare -ra; echo --; declare -rx | grep -E ' (R|E|AR)='
echo --; declare -xi | grep -E ' (I|E)=' ''')
e("readonly_array_flags_and_conversions", r'''a=(1); readonly -A a; echo $?; declare -p a
declare -A b=([k]=1); readonly -a b; echo $?; declare -p b
readonly -a m2; readonly -A m3; readonly -a m4=(1); declare -p m2 m3 m4
c=(1); declare -A c; echo s=$?
c=(1); declare -A c=([x]=2); echo same
echo next $?
f(){ d=(1); local -A d=([x]=1); echo s=$?; }; f''')
e("declaration_builtins_take_their_own_options", r'''readonly -i r=1; echo $?
export -i x; echo $?
export -a y; echo $?
declare -z; echo $?
typeset -z; echo $?
f(){ local -z; echo $?; }; f
declare -I z; echo $?''')
t("a_local_of_an_exported_variable_is_exported", r'''export x=g; f(){ local x=1; bash -c 'echo "[${x-unset}]"'; declare -p x; }; f; declare -p x
h(){ declare x=2; bash -c 'echo "[${x-unset}]"'; }; h''')
t("arrays_are_not_exported", r'''a=(x y); export a; bash -c 'echo "[${a-unset}]"'
declare -Ax A=([k]=v); bash -c 'echo "[${A-unset}]"' ''')
t("prefix_assignment_is_a_plain_string", r'''declare -u x; declare -i n; f() { echo "$x $n"; }; x=abc n=1/0 f; echo "[$x] [$n]"; n=2+3; echo $n''')
t("case_attributes_apply_to_element_appends", r'''declare -u a; a[0]=z; a[0]+=q; echo ${a[0]}
declare -l b=(X); b[0]+=YZ; echo ${b[0]}
declare -Au h; h[k]=a; h[k]+=b; echo ${h[k]}''')
t("declaration_builtin_from_an_expansion_splits_its_words", r'''c=export; w="a b"; $c x=$w; echo "[$x] [${b-unset}]"
d=declare; $d y=$w; echo "[$y]"
export z=$w; echo "[$z]"
t=typeset; $t q="1 2"; echo "[$q]"''')

group("-p with names")
e("export_and_readonly_p_with_names_set_the_attribute", r'''x=1; readonly -p x; echo "st=$?"; declare -p x
y=2; export -p y; echo "st=$?"; declare -p y
readonly -p z=3; echo "$? $z"; declare -p z''')
e("local_p_shows_only_locals", r'''x=1; f(){ local y=2; local -p x y; echo "st=$?"; local -p; }; f''')
t("transform_a_declares_a_name_with_attributes_and_no_value", r'''declare -i b; echo "[${b@A}]"; declare -a c; echo "[${c@A}]"; declare -x d; echo "[${d@A}]"
e=; echo "[${e@A}]"; f() { local g; echo "[${g@A}]"; }; f; declare -A h; echo "[${h@A}]"; declare -r k; echo "[${k@A}]"''')
