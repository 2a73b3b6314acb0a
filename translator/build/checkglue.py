"""C glue for ``translate check``: each region exit dumps what the region wrote.

Both programs that `translator.build.check` builds call ``translate_<region>(...)`` at each
region exit, with the arguments of the real glue:

- the *original* program (instrumented: the region's own code stays, the call follows it)
  links a glue file compiled without ``TR_CHECK_TRANSLATED``: the function only dumps;
- the *translated* program compiles the real host glue with ``translate_<region>`` renamed to
  ``_tr_real_translate_<region>`` (a ``-D`` macro), and the check glue compiled with
  ``TR_CHECK_TRANSLATED`` runs the real region first, then dumps.

Dump format (file named by ``$TRANSLATE_DUMP``, appended, flushed per record; under an MPI
launcher, ``%r`` in the name stands for the process's rank, so that each rank dumps its own)::

    R <region>\n
    V <name> <dtype> <nbytes>\n<raw bytes>\n              one per value argument
    A <name> <dtype> <count> <nbytes>\n<raw bytes>\n      one per array the region writes
    E\n
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pymbolic.primitives as p

from translator.codegen.cexpr import safe_name, to_c
from translator.codegen.host import folded_constants, host_type
from translator.codegen.result import GeneratedCode, KernelParam
from translator.ir.expr import dependencies, substitute

REAL_PREFIX = "_tr_real_"
_WIDE = "_tr_i_"

SUPPORT_C = r"""/* translate check: dump support, generated; see translator/build/checkglue.py */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *tr_check_file;

static void tr_check_close(void)
{
    if (tr_check_file != NULL)
        fclose(tr_check_file);
    tr_check_file = NULL;
}

/* The rank of this process under an MPI launcher (Open MPI, MPICH/PMI, PMIx, Slurm), or 0. */
static long tr_check_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                        "SLURM_PROCID"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (getenv(names[i]) != NULL && getenv(names[i])[0] != '\0')
            return atol(getenv(names[i]));
    return 0;
}

/* $TRANSLATE_DUMP with its first "%r" replaced by the rank. */
static void tr_check_path(const char *path, char *buf, size_t size)
{
    const char *at = strstr(path, "%r");
    if (at == NULL)
        snprintf(buf, size, "%s", path);
    else
        snprintf(buf, size, "%.*s%ld%s", (int)(at - path), path, tr_check_rank(), at + 2);
}

static FILE *tr_check_out(void)
{
    const char *path;
    char name[4096];
    if (tr_check_file != NULL)
        return tr_check_file;
    path = getenv("TRANSLATE_DUMP");
    if (path == NULL || path[0] == '\0')
        return NULL;
    tr_check_path(path, name, sizeof name);
    path = name;
    tr_check_file = fopen(path, "ab");
    if (tr_check_file == NULL) {
        fprintf(stderr, "translate check: cannot open the dump file %s\n", path);
        exit(1);
    }
    atexit(tr_check_close);
    return tr_check_file;
}

void tr_check_begin(const char *region)
{
    FILE *f = tr_check_out();
    if (f != NULL)
        fprintf(f, "R %s\n", region);
}

void tr_check_value(const char *name, const char *dtype, const void *value, size_t size)
{
    FILE *f = tr_check_out();
    if (f == NULL)
        return;
    fprintf(f, "V %s %s %zu\n", name, dtype, size);
    fwrite(value, 1, size, f);
    fputc('\n', f);
}

void tr_check_array(const char *name, const char *dtype, const void *data, long long count,
                    size_t elem_size)
{
    FILE *f = tr_check_out();
    size_t n = count > 0 ? (size_t)count : 0;
    if (f == NULL)
        return;
    fprintf(f, "A %s %s %zu %zu\n", name, dtype, n, n * elem_size);
    if (n > 0)
        fwrite(data, elem_size, n, f);
    fputc('\n', f);
}

void tr_check_end(void)
{
    FILE *f = tr_check_out();
    if (f != NULL) {
        fputs("E\n", f);
        fflush(f);
    }
}
"""

#: What the original program's region calls use of the runtime, which it does not link: the
#: index-table scans its calls pass as the translated one's do (over the host's elements), and
#: the packing's check that no data region holds a component (none does: no device there).
ORIGINAL_C = r"""
void tr_check_unheld(const void *host, long long bytes, const char *what, const char *region)
{
    (void)host; (void)bytes; (void)what; (void)region;
}

#define TR_INDEX_NONE (1LL << 40)
#define TR_CHECK_SCAN(suffix, type)                                                 \
    long long tr_index_min_##suffix(const void *table, long long count)             \
    {                                                                               \
        const type *t = table;                                                      \
        type low;                                                                   \
        if (count <= 0) return 0;                                                   \
        low = t[0];                                                                 \
        for (long long k = 1; k < count; ++k) if (t[k] < low) low = t[k];           \
        return (long long)low;                                                      \
    }                                                                               \
    long long tr_index_max_##suffix(const void *table, long long count)             \
    {                                                                               \
        const type *t = table;                                                      \
        type high;                                                                  \
        if (count <= 0) return -1;                                                  \
        high = t[0];                                                                \
        for (long long k = 1; k < count; ++k) if (t[k] > high) high = t[k];         \
        return high > (type)0 && (unsigned long long)high > (~0ULL >> 1)            \
            ? (long long)(~0ULL >> 1) : (long long)high;                            \
    }                                                                               \
    long long tr_index_least_##suffix(const void *table, long long count)           \
    {                                                                               \
        return count <= 0 ? TR_INDEX_NONE : tr_index_min_##suffix(table, count);    \
    }                                                                               \
    long long tr_index_most_##suffix(const void *table, long long count)            \
    {                                                                               \
        return count <= 0 ? -TR_INDEX_NONE : tr_index_max_##suffix(table, count);   \
    }
TR_CHECK_SCAN(i8, signed char) TR_CHECK_SCAN(i16, short) TR_CHECK_SCAN(i32, int)
TR_CHECK_SCAN(i64, long long) TR_CHECK_SCAN(u8, unsigned char)
TR_CHECK_SCAN(u16, unsigned short) TR_CHECK_SCAN(u32, unsigned int)
TR_CHECK_SCAN(u64, unsigned long long)
"""

_DECLS = """void tr_check_begin(const char *region);
void tr_check_value(const char *name, const char *dtype, const void *value, size_t size);
void tr_check_array(const char *name, const char *dtype, const void *data, long long count,
                    size_t elem_size);
void tr_check_end(void);
"""


def _param_decl(kp: KernelParam) -> str:
    ctype = host_type(kp.dtype)
    if kp.kind == "value":
        return f"{ctype} {safe_name(kp.name)}"
    return f"{'' if kp.is_output else 'const '}{ctype} *{safe_name(kp.name)}"


def _params(gen: GeneratedCode) -> str:
    return ", ".join(_param_decl(kp) for kp in gen.host_params) or "void"


def _size_c(gen: GeneratedCode, kp: KernelParam) -> tuple[list[str], str]:
    """Declarations of widened integer copies and the C text of `kp`'s element count."""
    used = dependencies(kp.size)
    ints = [v for v in gen.params if v.kind == "value" and v.name in used
            and np.dtype(v.dtype).kind in "iub"]
    mapping = {v.name: p.Variable(_WIDE + v.name) for v in ints}
    decls = [f"const long long {_WIDE}{v.name}_{kp.name} = (long long){safe_name(v.name)};"
             for v in ints]
    mapping = {v.name: p.Variable(f"{_WIDE}{v.name}_{kp.name}") for v in ints}
    return decls, to_c(folded_constants(substitute(kp.size, mapping)))


def region_check_function(symbol: str, region: str, gen: GeneratedCode) -> str:
    """The dumping ``translate_<region>`` for one region (see the module docstring)."""
    real = REAL_PREFIX + symbol
    args = ", ".join(safe_name(kp.name) for kp in gen.host_params)
    body = ["#ifdef TR_CHECK_TRANSLATED", f"    {real}({args});", "#endif",
            f'    tr_check_begin("{region}");']
    for kp in gen.host_params:
        dtype, ctype, name = np.dtype(kp.dtype).name, host_type(kp.dtype), safe_name(kp.name)
        if kp.kind == "value":
            body.append(f'    tr_check_value("{kp.name}", "{dtype}", &{name}, sizeof({ctype}));')
        elif kp.is_output:
            decls, size = _size_c(gen, kp)
            body.append("    {")
            body += [f"        {d}" for d in decls]
            body += _dump_array(kp.name, dtype, name, size, ctype)
            body.append("    }")
    body.append("    tr_check_end();")
    proto = f"void {symbol}({_params(gen)})"
    return (f"#ifdef TR_CHECK_TRANSLATED\nvoid {real}({_params(gen)});\n#endif\n"
            f"{proto};\n{proto}\n{{\n" + "\n".join(body) + "\n}\n")


def check_glue_file(source_name: str, regions: Sequence[tuple[str, str, GeneratedCode]]) -> str:
    """The check glue of one source file: (glue symbol, region name, generated code) each."""
    head = (f"/* translate check glue for {source_name.replace('*/', '* /')}, generated */\n"
            "#include <stddef.h>\n#include <stdlib.h>\n#include \"translate_rt.h\"\n\n" + _DECLS)
    return head + "".join("\n" + region_check_function(sym, name, gen)
                          for sym, name, gen in regions)


def real_symbol_defines(symbols: Sequence[str]) -> list[str]:
    """``-D`` flags that rename each real glue function when compiling the host glue."""
    return [f"-D{s}={REAL_PREFIX}{s}" for s in symbols]


def _dump_array(label: str, dtype: str, name: str, size: str, ctype: str) -> list[str]:
    """Dump lines for one output array; the translated program dumps the device copy where a
    data region keeps the array on the device (its host copy is not current there)."""
    return ["#ifdef TR_CHECK_TRANSLATED",
            f"        void *_tr_dev = tr_data_peek({name}, (size_t)({size}) * sizeof({ctype}));",
            f'        tr_check_array("{label}", "{dtype}", _tr_dev ? _tr_dev : {name}, {size}, '
            f"sizeof({ctype}));",
            "        free(_tr_dev);",
            "#else",
            f'        tr_check_array("{label}", "{dtype}", {name}, {size}, sizeof({ctype}));',
            "#endif"]
