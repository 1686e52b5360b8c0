"""Random bash programs as small trees, so that the shrinker can cut them.

A program is a tree of nodes:
  Seq(items, sep, min)  a list (statements, words, case arms) joined by `sep`;
                        the shrinker removes items down to `min` of them
  T(fmt, *kids, stmt)   a template: `fmt` with `{0}`, `{1}`, ... filled by the
                        rendered kids; a statement template can be replaced by
                        one of its statement-list kids (hoisting a loop body)
  V(text, *simpler)     a leaf the shrinker may replace by a simpler text
  str                   a fixed leaf

Every generated program is tagged with the features it uses (`Gen.tags`), so a
run can leave out features that are known to mismatch (`--exclude`).
"""

import random
import re

_HOLE = re.compile(r"\{(\d)\}")


class Seq:
    __slots__ = ("items", "sep", "min")

    def __init__(self, items, sep="\n", min=0):
        self.items, self.sep, self.min = list(items), sep, min

    def render(self):
        return self.sep.join(render(i) for i in self.items)


class T:
    __slots__ = ("fmt", "kids", "stmt")

    def __init__(self, fmt, *kids, stmt=False):
        self.fmt, self.kids, self.stmt = fmt, list(kids), stmt

    def render(self):
        kids = self.kids
        return _HOLE.sub(lambda m: render(kids[int(m.group(1))]), self.fmt)


class V:
    __slots__ = ("text", "simpler")

    def __init__(self, text, *simpler):
        self.text, self.simpler = text, list(simpler)

    def render(self):
        return self.text


def render(n):
    return n if isinstance(n, str) else n.render()


# ---------------------------------------------------------------------------
# Vocabulary

# Raw values (before quoting): IFS characters, glob characters, empties,
# option-looking strings, escapes, multibyte text.
VALUES = [
    "", " ", "a", "ab", "a b", " a  b ", "a  b  c", "*", "a*", "?", "[ab]", "x:y", "x::y:",
    ":a:b", "a,b,,c", "a\tb", "-n", "-e", "-E", "--", "\\n", "a\\tb", "\\", "'", '"', "$", "$x",
    "ä", "héllo wörld", "1", "-3", "10", "0x1f", "010", "7", "abc def ghi", "A B", "MiXed",
    "a/b/c", "/x/y.txt", "file.tar.gz", "%s", "%d", "a\nb", "  lead", "trail  ", "}", "{a,b}",
    "~", "!", "a=b", "$(echo no)", "`no`", "x y z", "@", "0", "-", "ab:cd", "é:è",
]
IFS_VALUES = ["", " ", ":", " :", ",", ": ", "a", "-:", " \t\n", "\t", "x", ":,", " ,", "é"]
SCALARS = ["a", "b", "c", "v", "x"]
PATTERNS = [
    "a", "*", "?", "a*", "*b", "*a", "b*", "[ab]", "[!a]*", "\\*", '"*"', "' '", " ", "??", "*:*", ":*",
    "*:", "[[:space:]]", "[[:alpha:]]*", "*[0-9]", "x", "", "'a'*", "é", "/*", "*/", ".*", "*.*", "[a-c]",
]
# Bracket expressions in full POSIX form: equivalence classes, collating
# symbols, unknown classes, reversed ranges, `]` and `-` in odd places.
BRACKETS = [
    "[[=a=]]*", "*[[.period.]]*", "*[[.-.]]*", "[[:foo:]]*", "[![:foo:]]*", "[z-a]*", "[z-ab]*", "[]a]*",
    "[!]]*", "*[a-]", "[[.a.]-c]*", "*[[:alpha:][.-.]]", "[[=a=][=b=]]*", "*[[.space.]]*", "[[.hyphen.]-0]*",
]
REPLS = ["", "X", "<&>", "-", "'q'", '"d"', "$x", "\\&", "/", " ", "&"]
GLOBS = ["*", "a*", "*.txt", "?", "a?", "[ab]*", "[!a]*", "*b*", "nomatch*", ".*", "*/", "d*/*", "'a'*",
         "\\a*", "a[", "[", "*[", "**", "b.*", "*[[.period.]]txt", "[[=a=]]?", "[![:foo:]]*"]
FILES = ["a1", "a2", "b.txt", "ab", "'sp ace'", ".hid", "x.txt"]
PRINTF_FORMATS = [
    "%s\\n", "<%s>", "[%5s]", "[%-5s]", "[%.2s]", "%d\\n", "[%5d]", "[%-4d]", "[%05d]", "%+d\\n", "% d\\n",
    "%x %X %o\\n", "%#x %#o\\n", "%i\\n", "%u\\n", "%c|", "%b|", "%q\\n", "%%\\n", "%s-%s\\n", "%e\\n",
    "%.3f\\n", "%g\\n", "%5.1f|", "[%*d]", "[%-*s]", "%s\\t%s\\n", "\\x41\\101\\u00e9\\n", "a\\cb",
    "%(%Y-%m-%d)T\\n", "%s", "%.0f\\n", "%'d\\n", "%08.3f\\n", "%-8s|\\n", "%3c|", "%ld\\n", "%hd\\n",
    "%z\\n", "%\\n", "%.s|", "%10.4s|", "%b\\n", "\\e[0m|", "%5%|",
]
ARITH_ATOMS = ["0", "1", "2", "3", "7", "10", "255", "0x1f", "010", "2#101", "36#z", "16#ff", "8#17",
               "i", "n", "x", "a", "-1", "$n", "${n}", "arr[1]", "arr[n]", "09", "1e3", "64#_"]
ARITH_BIN = ["+", "-", "*", "/", "%", "**", "<<", ">>", "&", "|", "^", "&&", "||", "<", "<=", ">", ">=",
             "==", "!=", ","]
ARITH_ASSIGN = ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="]


class Gen:
    def __init__(self, seed, size=6):
        self.r = random.Random(seed)
        self.size = size
        self.tags = set()
        self.depth = 0
        self.funcs = []
        self.in_func = False
        self.loop = 0

    # -- helpers ------------------------------------------------------------
    def p(self, prob):
        return self.r.random() < prob

    def c(self, seq):
        return self.r.choice(seq)

    def tag(self, *names):
        self.tags.update(names)

    # -- quoting ------------------------------------------------------------
    def quote(self, s, style=None):
        """A word that yields the literal string `s` (or, unquoted, its expansion)."""
        style = style or self.c(["sq", "dq", "ansi", "bs", "raw", "sq", "dq"])
        if style == "sq" and "'" not in s:
            return "'" + s + "'"
        if style == "dq":
            return '"' + "".join("\\" + ch if ch in '"\\$`' else ch for ch in s) + '"'
        if style == "ansi":
            self.tag("ansi")
            out = []
            for ch in s:
                if ch == "'": out.append("\\'")
                elif ch == "\\": out.append("\\\\")
                elif ch == "\n": out.append("\\n")
                elif ch == "\t": out.append(self.c(["\\t", "\\011", "\\x09"]))
                else: out.append(ch)
            return "$'" + "".join(out) + "'"
        if style == "raw" and s and all(ch.isalnum() or ch in "_-./,:=@%+" for ch in s):
            return s
        # backslash every special character
        if s == "":
            return "''"
        out = []
        for ch in s:
            if ch == "\n":
                out.append("'\n'")
            elif ch.isalnum() or ord(ch) > 127:
                out.append(ch)
            else:
                out.append("\\" + ch)
        return "".join(out)

    def lit(self):
        s = self.c(VALUES)
        return V(self.quote(s), "x", "''")

    # -- words --------------------------------------------------------------
    def var(self):
        return self.c(SCALARS)

    def param(self, inq=False):
        """A parameter expansion, any operator."""
        self.tag("param")
        v = self.var()
        if self.p(0.08):
            v = self.c(["1", "2", "@", "*", "#", "?"])
            self.tag("positional")
        if self.p(0.1):
            v = self.c(["arr[1]", "arr[@]", "arr[*]", "arr[-1]", "arr[9]"])
            self.tag("array")
        k = self.r.randrange(28)
        w = lambda: self.subword(inq)
        if k == 0: return V("$" + v if v[0] != "a" or v == "a" else "${" + v + "}", "$x")
        if k == 1: return "${" + v + "}"
        if k in (2, 3, 4, 5, 6, 7, 8, 9):
            op = self.c([":-", "-", ":=", "=", ":+", "+", ":?", "?"])
            if op in (":=", "=") and not v[0].isalpha() or v.startswith("arr[") and op in (":=", "="):
                op = ":-"
            if "?" in op: self.tag("param_error")
            return T("${" + v + op + "{0}}", w())
        if k in (10, 11, 12, 13):
            op = self.c(["#", "##", "%", "%%"])
            return T("${" + v + op + "{0}}", self.pattern(inq))
        if k in (14, 15, 16):
            op = self.c(["/", "//", "/#", "/%"])
            if self.p(0.15):
                return T("${" + v + op + "{0}}", self.pattern(inq))
            return T("${" + v + op + "{0}/{1}}", self.pattern(inq), V(self.c(REPLS), ""))
        if k == 17: return "${#" + v + "}"
        if k == 18:
            off = self.c(["0", "1", "2", "-1", " -2", "(-1)", "1+1", "n", "7", "-9", " -1:1", "1:-1", ":2", "0:0", "1:2",
                          "-3:2", "2:-2", "1:0", "x"])
            if v in ("@", "*"): self.tag("positional_slice")
            return "${" + v + ":" + off + "}"
        if k == 19:
            op = self.c(["^", "^^", ",", ",,", "~", "~~", "^^[ab]", ",,[A-Z]", "^*"])
            if "~" in op: self.tag("case_toggle")
            return "${" + v + op + "}"
        if k == 20:
            op = self.c(["Q", "E", "P", "A", "a", "U", "u", "L", "K", "k"])
            self.tag("transform", "transform_" + op)
            return "${" + v + "@" + op + "}"
        if k == 21:
            self.tag("indirect")
            return self.c(["${!v}", "${!x}", "${!a}", "${!b*}", "${!a@}", "${!1}", "${!arr[@]}", "${!#}"])
        if k == 22:
            self.tag("positional")
            return self.c(["$@", "$*", "$#", "${@:2}", "${*:1:2}", "${@: -1}", "${#@}", "${#*}", "$1", "${10}", "$10",
                           "${@:0:1}", "${@/a/X}", "${*#?}", "${@^^}"])
        if k == 23:
            self.tag("array")
            return self.c(["${arr[@]}", "${arr[*]}", "${#arr[@]}", "${!arr[@]}", "${arr[@]:1}", "${arr[@]:1:1}",
                           "${arr[@]/a/X}", "${arr[@]#?}", "${arr[*]%b}", "${arr}", "${arr[1]:-d}", "${#arr[1]}",
                           "${arr[@]^}", "${arr[@]@Q}", "${arr[@]:(-1)}"])
        if k == 24:
            return T("$(( {0} ))", self.arith())
        if k == 25:
            self.tag("cmdsub")
            return T("$({0})", self.simple_print())
        if k == 26:
            self.tag("special")
            return self.c(["$?", "$#", "${#}", "$-", "${?}", "$0"])
        self.tag("bad_subst")
        return self.c(["${v:-a b}", "${x:2:1}", "${v/ /_}", "${c//[ab]/-}", "${a:?}", "${b-}", "${x+set}",
                       "${v:0:-1}", "${a#\"*\"}", "${x%'b'}"])

    def subword(self, inq):
        """The word inside ${v:-WORD}: quotes, nested expansions, spaces."""
        k = self.r.randrange(6)
        if k == 0: return V(self.quote(self.c(VALUES), self.c(["sq", "dq"])), "x")
        if k == 1: return V(self.c(["x", "a b", "", " ", "*", "w*", "'a b'", '"a b"', "a\\ b", "\\'", "\\\"", "'\"'"]), "x")
        if k == 2 and self.depth < 3:
            self.depth += 1
            n = self.param(inq)
            self.depth -= 1
            return n
        if k == 3: return V(self.c(["$x", "\"$x\"", "'$x'", "${a}b", "$a$b", "\"$a\"-\"$b\""]), "x")
        if k == 4: return V(self.c(["~", "~/d", "a}b", "\\}", "{a,b}", "a\tb", "$'a\\tb'", "[ab]*"]), "x")
        return V("", "x")

    def pattern(self, inq):
        p = self.c(PATTERNS)
        if self.p(0.04):
            self.tag("bracket")
            p = self.c(BRACKETS)
        if self.p(0.05):
            self.tag("extglob")
            p = self.c(["@(a|b)", "*(a)", "+(a|b)", "?(x)", "!(a)*"])
        return V(p, "a")

    def arith(self, d=0):
        """An arithmetic expression."""
        self.tag("arith")
        k = self.r.randrange(10)
        if d > 3 or k < 3:
            a = self.c(ARITH_ATOMS)
            if "arr" in a: self.tag("array")
            return V(a, "1")
        if k < 6:
            op = self.c(ARITH_BIN)
            if op == "**":
                return T("{0} ** " + self.c(["0", "2", "3", "-1"]), self.arith(d + 1))
            if op in ("/", "%"):
                self.tag("arith_div")
            return T("{0} " + op + " {1}", self.arith(d + 1), self.arith(d + 1))
        if k == 6:
            return T("({0})", self.arith(d + 1))
        if k == 7:
            op = self.c(["-", "!", "~", "+", "++", "--"])
            if op in ("++", "--"):
                return T(op + self.c(["i", "n", "x"]))
            return T(op + "{0}", self.arith(d + 1))
        if k == 8:
            v = self.c(["i", "n", "x"])
            if self.p(0.3): return v + self.c(["++", "--"])
            return T(v + " " + self.c(ARITH_ASSIGN) + " {0}", self.arith(d + 1))
        return T("{0} ? {1} : {2}", self.arith(d + 1), self.arith(d + 1), self.arith(d + 1))

    def glob(self):
        self.tag("glob")
        return V(self.c(GLOBS), "a*")

    def word(self, inq_ok=True):
        """One shell word: literal, expansion (quoted or not), glob, mix."""
        k = self.r.randrange(12)
        if k < 3:
            return self.lit()
        if k < 6:
            return T('"{0}"', self.param(True))
        if k < 8:
            return self.param(False)
        if k == 8:
            return T('"{0}{1}"', V(self.c(["", "<", "a ", " "]), ""), self.param(True))
        if k == 9:
            return self.glob()
        if k == 10:
            return T("{0}{1}", self.lit(), self.param(False))
        self.tag("cmdsub")
        return T(self.c(['"$({0})"', "$({0})", "`{0}`"]), self.simple_print())

    def words(self, lo=1, hi=4):
        return Seq([self.word() for _ in range(self.r.randint(lo, hi))], " ")

    # -- statements ---------------------------------------------------------
    def show(self):
        """A statement that prints words so that splitting and emptiness show."""
        k = self.r.randrange(6)
        if k < 3:
            return T("printf '<%s>' {0}; echo", self.words(1, 4), stmt=True)
        if k == 3:
            self.tag("echo")
            return T("echo " + self.c(["", "-n ", "-e ", "-E ", "-ne ", "-- ", "-en ", "-nE "]) + "{0}", self.words(1, 3), stmt=True)
        if k == 4:
            return T("set -- {0}; echo \"$#\"", self.words(0, 4), stmt=True)
        self.tag("printf")
        return self.printf()

    def printf(self):
        self.tag("printf")
        fmt = self.c(PRINTF_FORMATS)
        if "T" in fmt: self.tag("printf_time")
        if self.p(0.2):
            v = self.var()
            return T("printf -v " + v + " '" + fmt + "' {0}; echo \"${" + v + "@Q}\"", self.words(0, 3), stmt=True)
        return T("printf '" + fmt + "' {0}", self.words(0, 3), stmt=True)

    def simple_print(self):
        k = self.r.randrange(4)
        if k == 0: return T("echo {0}", self.words(1, 2))
        if k == 1: return T("printf '%s,' {0}", self.words(1, 2))
        if k == 2: return V(self.c(["echo a b", "printf ' x \\n\\n'", "echo", "echo '*'", "printf 'a\\nb\\n\\n'",
                                    "echo ' '", "cat <<< 'q r'", "echo -n", "printf '%s' a:b"]), "echo")
        return T("echo {0}", self.param(False))

    def assign(self):
        v = self.var()
        k = self.r.randrange(10)
        if k < 5:
            return T(v + "={0}", self.word(), stmt=True)
        if k == 5:
            return T(v + "+={0}", self.word(), stmt=True)
        if k == 6:
            self.tag("ifs")
            return V("IFS=" + self.quote(self.c(IFS_VALUES), self.c(["sq", "dq", "ansi"])), "IFS=:")
        if k == 7:
            self.tag("array")
            return T("arr=({0})", self.words(0, 4), stmt=True)
        if k == 8:
            self.tag("array")
            return T("arr[" + self.c(["0", "1", "2", "5", "n", "i+1", "-1"]) + "]={0}", self.word(), stmt=True)
        return T(self.c(["n", "i", "x"]) + "=$(( {0} ))", self.arith(), stmt=True)

    def stmt(self, d=0):
        if d > 2:
            return self.c([self.show, self.assign])()
        k = self.r.randrange(40)
        if k < 8: return self.show()
        if k < 14: return self.assign()
        if k == 14: return self.printf()
        if k == 15:
            return T("(( {0} )); echo \"$? n=$n i=$i x=$x\"", self.arith(), stmt=True)
        if k == 16:
            self.tag("let")
            return T("let \"{0}\" '{1}'; echo $?", self.arith(), self.arith(), stmt=True)
        if k == 17: return self.case(d)
        if k == 18: return self.forloop(d)
        if k == 19: return self.whileloop(d)
        if k == 20: return self.ifstmt(d)
        if k == 21: return self.func(d)
        if k == 22 and self.funcs: return self.call()
        if k == 23: return self.subshell(d)
        if k == 24: return self.heredoc()
        if k == 25: return self.redir(d)
        if k == 26: return self.readstmt()
        if k == 27: return self.trap()
        if k == 28: return self.declare()
        if k == 29: return self.opts()
        if k == 30: return T("echo \"st=$?\"", stmt=True)
        if k == 31:
            self.tag("ifs")
            return T("IFS=" + self.quote(self.c(IFS_VALUES), "sq") + "; printf '<%s>' {0}; echo", self.words(1, 3), stmt=True)
        if k == 32: return T("{0} | cat", self.show(), stmt=True)
        if k == 33:
            self.tag("positional")
            return T("set -- {0}; printf '<%s>' \"$@\" $* \"$*\"; echo", self.words(0, 4), stmt=True)
        if k == 34:
            self.tag("unset")
            return V("unset " + self.c(SCALARS + ["IFS", "arr", "n"]), ":")
        if k == 35:
            self.tag("eval")
            return T("eval {0}", self.words(1, 2), stmt=True)
        if k == 36:
            self.tag("test")
            return T(self.c(["[ {0} = {1} ]", "[ -n {0} ]", "[ -z {0} ]", "test {0}", "[ {0} ]", "[[ {0} == {1} ]]",
                             "[[ {0} = *{1}* ]]", "[ {0} \\< {1} ]"]) + "; echo $?", self.word(), self.word(), stmt=True)
        if k == 37:
            return T("{0} && {1} || {2}", self.show(), self.show(), self.show(), stmt=True)
        if k == 38:
            self.tag("local_scope")
            return T("{ {0}; } 2>&1", self.show(), stmt=True)
        return T("echo {0}", self.glob(), stmt=True)

    def body(self, d, lo=1, hi=3):
        return Seq([self.stmt(d + 1) for _ in range(self.r.randint(lo, hi))], "\n", 1)

    def case(self, d):
        self.tag("case")
        arms = []
        for _ in range(self.r.randint(1, 3)):
            pats = " | ".join(self.casepat() for _ in range(self.r.randint(1, 2)))
            term = self.c([";;", ";;", ";;", ";&", ";;&"])
            if term != ";;": self.tag("case_fallthrough")
            arms.append(T(pats + ") {0} " + term, Seq([self.show()], "; ", 1)))
        if self.p(0.5):
            arms.append(T("*) {0} ;;", Seq([self.show()], "; ", 1)))
        return T("case {0} in\n{1}\nesac", self.word(), Seq(arms, "\n", 1), stmt=True)

    def casepat(self):
        k = self.r.randrange(5)
        if k == 0:
            if self.p(0.1):
                self.tag("bracket")
                return self.c(BRACKETS)
            return self.c(PATTERNS[:-1]) or "x"
        if k == 1: return self.quote(self.c(VALUES) or "a", self.c(["sq", "dq"]))
        if k == 2: return "\"$" + self.var() + "\""
        if k == 3: return "$" + self.var()
        return self.c(["a*", "*b*", "[a-z]*", "?", "''", "\\*", "*", "x|y", "[[:upper:]]*", "-*"]).replace("|", "")

    def forloop(self, d):
        self.loop += 1
        self.tag("loop")
        if self.p(0.7):
            b = self.body(d)
            if self.p(0.15):
                self.tag("loopctl")
                b.items.append(V(self.c(["break", "continue", "[ \"$w\" = a ] && break"]), ":"))
            n = T("for w in {0}; do\n{1}\nprintf '{%s}' \"$w\"\ndone", self.words(0, 4), b, stmt=True)
        else:
            n = T("for ((k=0; k<" + self.c(["0", "1", "2", "3"]) + "; k++)); do\n{0}\ndone", self.body(d), stmt=True)
        self.loop -= 1
        return n

    def whileloop(self, d):
        self.tag("loop")
        kw = self.c(["while", "until"])
        cond = "(( q++ < 2 ))" if kw == "while" else "(( q++ >= 2 ))"
        return T("q=0; " + kw + " " + cond + "; do\n{0}\ndone; echo \"loop=$?\"", self.body(d, 1, 2), stmt=True)

    def ifstmt(self, d):
        cond = self.c(["[ -n \"$a\" ]", "[ \"$x\" = a ]", "(( n > 1 ))", "true", "false", "[[ $v == *a* ]]",
                       "test -z \"$b\"", "! false", "[ -e a1 ]", "[ $x ]"])
        if "[[" in cond: self.tag("test")
        if self.p(0.5):
            return T("if " + cond + "; then\n{0}\nelse\n{1}\nfi", self.body(d), self.body(d), stmt=True)
        return T("if " + cond + "; then\n{0}\nfi", self.body(d), stmt=True)

    def func(self, d):
        self.tag("function")
        name = "f%d" % len(self.funcs)
        was = self.in_func
        self.in_func = True
        b = self.body(d, 1, 3)
        if self.p(0.4):
            self.tag("local")
            b.items.insert(0, T("local " + self.c(["", "-i ", "-a ", "-u ", "-l ", "-r "]) + self.var() + "={0}", self.word()))
        if self.p(0.2):
            b.items.append(V("return " + self.c(["0", "1", "3", "256", "-1", "x"]), ":"))
        if self.p(0.15) and d < 2:
            self.tag("nested_function")
            inner = "g%d" % len(self.funcs)
            b.items.append(T(inner + "() { {0}; }; " + inner, self.show()))
        self.in_func = was
        self.funcs.append(name)
        return T(name + "() {\n{0}\n}\n" + name + " {1}; echo \"ret=$?\"", b, self.words(0, 3), stmt=True)

    def call(self):
        return T(self.c(self.funcs) + " {0}", self.words(0, 3), stmt=True)

    def subshell(self, d):
        self.tag("subshell")
        k = self.r.randrange(4)
        if k == 0: return T("(\n{0}\n); echo \"sub=$?\"", self.body(d), stmt=True)
        if k == 1: return T("{ {0}\n}", self.body(d), stmt=True)
        if k == 2: return T("r=$(\n{0}\n); printf '[%s]\\n' \"$r\"", self.body(d), stmt=True)
        return T("( {0}; exit " + self.c(["0", "3", "256"]) + " ); echo \"sub=$?\"", self.show(), stmt=True)

    def heredoc(self):
        self.tag("heredoc")
        lines = []
        for _ in range(self.r.randint(1, 3)):
            k = self.r.randrange(8)
            if k == 0: lines.append(V(self.c(VALUES).replace("\n", " "), "x"))
            elif k == 1: lines.append(V(self.c(["$a", "${b}", "$x$v", "\"$a\"", "'$b'", "${c:-d e}", "${#a}"]), "x"))
            elif k == 2: lines.append(V(self.c(["\\$a", "\\\\", "\\`", "a\\", "\\\"", "\\n", "$", "a $ b", "\\x"]), "x"))
            elif k == 3: lines.append(V(self.c(["$(echo c s)", "`echo b q`", "$((1+2))", "$((n*2))"]), "x"))
            elif k == 4: lines.append(V(self.c(["\ttab", "\t\tEOF", "EOF ", " EOF", "E\\OF"]), "x"))
            elif k == 5: lines.append(V("", "x"))
            else: lines.append(T("{0}", self.param(True)))
        kind = self.c(["<<EOF", "<<'EOF'", "<<\"EOF\"", "<<-EOF", "<<E\\OF", "<< EOF", "<<-'EOF'"])
        cmd = self.c(["cat", "cat", "while IFS= read -r l; do printf '(%s)' \"$l\"; done; echo",
                      "read -r a b; printf '<%s>' \"$a\" \"$b\"; echo"])
        if "read" in cmd: self.tag("read")
        end = "\tEOF" if kind.startswith("<<-") and self.p(0.5) else "EOF"
        return T(self._hd(cmd, kind) + "\n{0}\n" + end, Seq(lines, "\n", 0), stmt=True)

    @staticmethod
    def _hd(cmd, kind):
        if cmd.startswith("while"):
            return "while IFS= read -r l; do printf '(%s)' \"$l\"; done " + kind + "; echo"
        if cmd.startswith("read"):
            return "read -r a b " + kind + "; printf '<%s>' \"$a\" \"$b\"; echo"
        return "cat " + kind

    def redir(self, d):
        self.tag("redir")
        k = self.r.randrange(8)
        f = self.c(["f1", "f2"])
        if k == 0: return T("{0} > " + f + "; cat " + f, self.show(), stmt=True)
        if k == 1: return T("{0} >> " + f + "; {1} >> " + f + "; cat < " + f, self.show(), self.show(), stmt=True)
        if k == 2: return T("{ {0}; echo err >&2; } 2>&1 | cat", self.show(), stmt=True)
        if k == 3: return T("cat <<< {0}", self.word(), stmt=True)
        if k == 4: return T("{0} 2>/dev/null; echo \"rc=$?\"", self.show(), stmt=True)
        if k == 5:
            self.tag("exec_fd")
            return T("exec 3> " + f + "; {0} >&3; exec 3>&-; cat " + f, self.show(), stmt=True)
        if k == 6:
            self.tag("read", "loop")
            return T("{0} > f3; while read -r l; do printf '(%s)' \"$l\"; done < f3; echo", self.show(), stmt=True)
        return T("echo {0} >&2", self.word(), stmt=True)

    def readstmt(self):
        self.tag("read")
        opts = self.c(["-r", "", "-r -a arr", "-d :", "-n 2", "-N 3", "-r -d ''", "-rn1"])
        if "arr" in opts: self.tag("array")
        ifs = self.c(["", "IFS= ", "IFS=: ", "IFS=', ' ", "IFS=$' \\t' "])
        return T(ifs + "read " + opts + " a b <<< {0}; echo \"rc=$?\"; printf '<%s>' \"$a\" \"$b\" \"${arr[@]}\"; echo",
                 self.word(), stmt=True)

    def trap(self):
        self.tag("trap")
        return V(self.c(["trap 'echo T:$?' EXIT", "trap 'echo ERR:$?' ERR", "trap 'echo R' RETURN", "trap - EXIT",
                         "trap -p EXIT", "trap 'echo \"x=$x\"' EXIT", "trap '' EXIT"]), ":")

    def declare(self):
        self.tag("declare")
        v = self.var()
        k = self.r.randrange(6)
        if k == 0:
            return T("declare " + self.c(["-i", "-u", "-l", "-x", "-r", "-a", "--", "-iu"]) + " " + v + "={0}", self.word(), stmt=True)
        if k == 1: return V("declare -p " + v + " 2>&1", ":")
        if k == 2: return T("declare -i " + v + "; " + v + "={0}; echo \"$" + v + "\"", self.word(), stmt=True)
        if k == 3: return V("unset " + v + "; echo \"${" + v + "-unset}\"", ":")
        if k == 4: return T("readonly " + v + "={0}; " + v + "=q; echo $?", self.word(), stmt=True)
        return T("export " + v + "={0}; declare -p " + v, self.word(), stmt=True)

    def opts(self):
        k = self.r.randrange(4)
        if k == 0:
            o = self.c(["nullglob", "failglob", "dotglob", "nocaseglob", "extglob", "globstar", "nocasematch", "xpg_echo"])
            self.tag("shopt", "shopt_" + o)
            return V("shopt -s " + o, ":")
        if k == 1:
            self.tag("noglob")
            return V("set -f", ":")
        if k == 2:
            self.tag("nounset")
            return V("set -u", ":")
        self.tag("errexit")
        return V(self.c(["set -e", "set -o pipefail"]), ":")

    # -- program ------------------------------------------------------------
    def program(self):
        stmts = []
        if self.p(0.5):
            files = [f for f in FILES if self.p(0.5)] or ["a1"]
            stmts.append(V(": > " + " > ".join(files), ":"))
            if self.p(0.3):
                stmts.append(V("mkdir dd; : > dd/in", ":"))
        if self.p(0.4):
            stmts.append(T("a={0}", self.lit()))
        if self.p(0.3):
            stmts.append(T("x={0}", self.lit()))
        for _ in range(self.r.randint(2, self.size)):
            stmts.append(self.stmt())
        return Seq(stmts, "\n", 1)


def generate(seed, size=6):
    g = Gen(seed, size)
    prog = g.program()
    return prog, g.tags
