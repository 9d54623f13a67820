// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_semiring_identify.c — host identification of semirings.
//
//  * Every GrB_Semiring variable declared in the installed GraphBLAS.h
//    (parsed here) decomposes, and maps to table rows whose operator kinds
//    and type are the ones its name spells (GxB_ADD_MULT_T and
//    GrB_ADD_MULT_SEMIRING_T), with the identity and terminal the monoid
//    object holds.
//  * Semirings assembled at run time are recognised: GrB_Semiring_new from
//    GxB_ANY_BOOL_MONOID or GrB_LOR_MONOID_BOOL and GrB_ONEB_BOOL, and from
//    a monoid built with GrB_Monoid_new (whose identity is the program's).
//  * A user-defined operator or type without a definition is not recognised
//    (GCU_NOT_HANDLED); one created with GxB_BinaryOp_new / GxB_Type_new and
//    a definition is, and so is one given CUDA source through
//    grbcuda_register_binop. Registration rejects bad arguments.
#include "gcu_test.h"
#include "../../semirings/gcu_semiring.h"
#include "../../src/jit/gcu_jit_public.h"
#include "../../src/util/gcu_util.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GCU_GRAPHBLAS_H
#define GCU_GRAPHBLAS_H NULL      // the path the build recorded, if any
#endif

// the GrB_Semiring variables: after "GB_PUBLIC GrB_Semiring", up to ';',
// skipping comments (function declarations have parentheses)
static int semiring_names (char *h, char ***names)
{
    gcu_test_strip_comments (h) ;
    int n = 0, cap = 2048 ;
    *names = malloc (cap * sizeof (char *)) ;
    for (char *p = strstr (h, "GB_PUBLIC") ; p != NULL ; p = strstr (p + 1, "GB_PUBLIC"))
    {
        char *q = p + 9 ;
        while (isspace ((unsigned char) *q)) q++ ;
        if (strncmp (q, "GrB_Semiring", 12) != 0 || isalnum ((unsigned char) q [12]) || q [12] == '_') continue ;
        q += 12 ;
        char *end = strchr (q, ';') ;
        if (end == NULL || memchr (q, '(', end - q) != NULL) continue ;
        while (q < end)
        {
            while (q < end && !(isalnum ((unsigned char) *q) || *q == '_')) q++ ;
            char *b = q ;
            while (q < end && (isalnum ((unsigned char) *q) || *q == '_')) q++ ;
            if (q > b && n < cap) (*names) [n++] = strndup (b, q - b) ;
        }
    }
    return n ;
}

// do a table kind's name and a name in a semiring's name denote the same
// operator? (ONEB is PAIR; the EQ monoid is LXNOR)
static bool same_op (gcu_opcode op, const char *word, gcu_type_code t)
{
    const char *name = gcu_ops [op].name ;
    if (strcmp (name, word) == 0) return true ;
    if (op == GCU_OP_PAIR && strcmp (word, "ONEB") == 0) return true ;
    // GrB_EQ_BOOL and GrB_LXNOR are one object
    if (t == GCU_T_BOOL && op == GCU_OP_LXNOR && strcmp (word, "EQ") == 0) return true ;
    return false ;
}

static void check_builtin_semirings (void)
{
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    CHECK (h != NULL, "GraphBLAS.h %d.%d not found (set GRBCUDA_GRAPHBLAS_H)",
        GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR) ;
    if (h == NULL) return ;
    char **names = NULL ;
    int n = semiring_names (h, &names) ;
    printf ("%d semirings declared in GraphBLAS.h\n", n) ;
    CHECK (n > 1000, "the parse found only %d", n) ;
    int recognised = 0 ;
    for (int k = 0 ; k < n ; k++)
    {
        const char *name = names [k] ;
        GrB_Semiring *addr = dlsym (RTLD_DEFAULT, name) ;
        CHECK (addr != NULL, "%s: no such symbol", name) ;
        if (addr == NULL) continue ;
        gcu_semiring_desc d ;
        GrB_Info info = gcu_semiring_identify (*addr, &d) ;
        CHECK (info == GrB_SUCCESS, "%s: identify returned %d", name, (int) info) ;
        if (info != GrB_SUCCESS) continue ;
        // GxB_ADD_MULT_T or GrB_ADD_MULT_SEMIRING_T
        char words [4][32] ;
        int nw = 0 ;
        char buf [128] ;
        snprintf (buf, sizeof (buf), "%s", name + 4) ;
        for (char *tok = strtok (buf, "_") ; tok && nw < 4 ; tok = strtok (NULL, "_"))
        {
            if (strcmp (tok, "SEMIRING") == 0) continue ;
            snprintf (words [nw++], 32, "%s", tok) ;
        }
        CHECK (nw == 3, "%s: unexpected name", name) ;
        if (nw != 3) continue ;
        bool ok = d.add.builtin != NULL && d.mult.builtin != NULL &&
            same_op (d.add.op.op, words [0], d.add.op.z.code) &&
            same_op (d.mult.op, words [1], d.mult.x.code) &&
            d.mult.x.code < GCU_NTYPES &&
            strcmp (gcu_types [d.mult.x.code].name, words [2]) == 0 ;
        CHECK (ok, "%s maps to %s.%s over %s", name, gcu_ops [d.add.op.op].name,
            gcu_ops [d.mult.op].name, d.mult.x.code < GCU_NTYPES ?
            gcu_types [d.mult.x.code].name : "?") ;
        // the monoid's values are the object's
        uint8_t id [16] = { 0 } ;
        OK (GxB_Monoid_identity (id, d.add.handle)) ;
        CHECK (memcmp (id, d.add.identity, d.add.op.z.size) == 0, "%s: identity", name) ;
        CHECK (d.add.op.z.handle == d.mult.z.handle, "%s: z types differ", name) ;
        if (ok) recognised++ ;
        free (names [k]) ;
    }
    printf ("%d of %d built-in semirings recognised\n", recognised, n) ;
    free (names) ;
    free (h) ;
}

static void check_runtime_semirings (void)
{
    gcu_semiring_desc d ;
    GrB_Semiring s = NULL ;

    // ANY.ONEB and LOR.ONEB over bool, as BFS builds them
    OK (GrB_Semiring_new (&s, GxB_ANY_BOOL_MONOID, GrB_ONEB_BOOL)) ;
    OK (gcu_semiring_identify (s, &d)) ;
    CHECK (d.add.op.op == GCU_OP_ANY && d.add.is_any && d.mult.op == GCU_OP_PAIR &&
        d.mult.x.code == GCU_T_BOOL && d.add.builtin != NULL, "ANY.ONEB.BOOL") ;
    GrB_Semiring_free (&s) ;
    OK (GrB_Semiring_new (&s, GrB_LOR_MONOID_BOOL, GrB_ONEB_BOOL)) ;
    OK (gcu_semiring_identify (s, &d)) ;
    CHECK (d.add.op.op == GCU_OP_LOR && d.add.has_terminal && d.add.terminal [0] == 1 &&
        d.add.identity [0] == 0 && d.mult.op == GCU_OP_PAIR, "LOR.ONEB.BOOL") ;
    GrB_Semiring_free (&s) ;

    // a monoid made at run time from a built-in operator: described with the
    // values the object holds (SuiteSparse 7.4 keeps the operator's own
    // identity and terminal for a built-in operator, whatever the program
    // passed), so the device computes what the host would
    GrB_Monoid m = NULL ;
    OK (GrB_Monoid_new_INT64 (&m, GrB_MIN_INT64, (int64_t) 42)) ;
    OK (GrB_Semiring_new (&s, m, GxB_SECONDJ_INT64)) ;
    OK (gcu_semiring_identify (s, &d)) ;
    int64_t id = 0, lib_id = 0 ;
    memcpy (&id, d.add.identity, 8) ;
    OK (GxB_Monoid_identity (&lib_id, m)) ;
    CHECK (d.add.builtin == NULL && d.add.op.op == GCU_OP_MIN && id == lib_id &&
        d.mult.op == GCU_OP_SECONDJ && (d.mult.flags & GCU_OPF_POSITIONAL),
        "MIN.SECONDJ.INT64 built at run time") ;
    GrB_Semiring_free (&s) ;
    GrB_Monoid_free (&m) ;

    OK (GxB_Monoid_terminal_new_INT32 (&m, GrB_MAX_INT32, (int32_t) 0, (int32_t) 7)) ;
    OK (GrB_Semiring_new (&s, m, GrB_TIMES_INT32)) ;
    OK (gcu_semiring_identify (s, &d)) ;
    int32_t term = 0, lib_term = 0 ;
    bool lib_has = false ;
    memcpy (&term, d.add.terminal, 4) ;
    OK (GxB_Monoid_terminal (&lib_has, &lib_term, m)) ;
    CHECK (d.add.has_terminal == lib_has && term == lib_term, "MAX.TIMES.INT32 with a terminal") ;
    GrB_Semiring_free (&s) ;
    GrB_Monoid_free (&m) ;

    // NULL
    CHECK (gcu_semiring_identify (NULL, &d) == GrB_NULL_POINTER, "NULL semiring") ;
    CHECK (gcu_monoid_identify (NULL, &d.add) == GrB_NULL_POINTER, "NULL monoid") ;
    CHECK (gcu_binop_identify (NULL, &d.mult) == GrB_NULL_POINTER, "NULL operator") ;
}

// host versions of the user operators below
typedef struct { double re ; int32_t n ; } mytype ;
static void my_add (void *z, const void *x, const void *y)
{
    const mytype *a = x, *b = y ;
    mytype c = { a->re + b->re, a->n + b->n } ;
    memcpy (z, &c, sizeof (c)) ;
}
static void my_times (void *z, const void *x, const void *y)
{
    *(double *) z = *(const double *) x * *(const double *) y + 1 ;
}

#define MYTYPE_DEFN "typedef struct { double re ; int32_t n ; } mytype ;"
#define MY_ADD_DEFN \
    "void my_add (mytype *z, const mytype *x, const mytype *y) " \
    "{ z->re = x->re + y->re ; z->n = x->n + y->n ; }"

static void check_user (void)
{
    gcu_semiring_desc d ;
    gcu_binop_desc b ;
    GrB_Semiring s = NULL ;

    // GrB_BinaryOp_new: no definition, so the host
    GrB_BinaryOp op = NULL ;
    OK (GrB_BinaryOp_new (&op, my_times, GrB_FP64, GrB_FP64, GrB_FP64)) ;
    CHECK (gcu_binop_identify (op, &b) == GCU_NOT_HANDLED, "user op without definition") ;
    OK (GrB_Semiring_new (&s, GrB_PLUS_MONOID_FP64, op)) ;
    CHECK (gcu_semiring_identify (s, &d) == GCU_NOT_HANDLED,
        "semiring with a user op without definition") ;

    // ... until CUDA source is registered for it
    CHECK (grbcuda_register_binop (op, "my_times", NULL) == GrB_NULL_POINTER, "NULL defn") ;
    CHECK (grbcuda_register_binop (op, "not an identifier", "x") == GrB_INVALID_VALUE, "bad name") ;
    CHECK (grbcuda_register_binop (GrB_PLUS_FP64, "f", "x") == GrB_INVALID_VALUE, "built-in op") ;
    CHECK (grbcuda_register_type (GrB_FP64, "t", "x") == GrB_INVALID_VALUE, "built-in type") ;
    OK (grbcuda_register_binop (op, "my_times",
        "void my_times (double *z, const double *x, const double *y) { *z = (*x) * (*y) + 1 ; }")) ;
    OK (gcu_semiring_identify (s, &d)) ;
    CHECK (d.mult.op == GCU_OP_USER && d.mult.builtin == NULL &&
        strcmp (d.mult.user_name, "my_times") == 0 && d.add.op.op == GCU_OP_PLUS,
        "registered user op") ;
    GrB_Semiring_free (&s) ;
    GrB_BinaryOp_free (&op) ;

    // GxB_Type_new / GxB_BinaryOp_new with definitions: captured
    GrB_Type t = NULL ;
    OK (GxB_Type_new (&t, sizeof (mytype), "mytype", MYTYPE_DEFN)) ;
    gcu_type_desc td ;
    OK (gcu_type_identify (t, &td)) ;
    CHECK (td.code == GCU_T_UDT && strcmp (td.cuda, "mytype") == 0 &&
        strcmp (td.defn, MYTYPE_DEFN) == 0 && td.size == sizeof (mytype), "captured type") ;
    OK (GxB_BinaryOp_new (&op, my_add, t, t, t, "my_add", MY_ADD_DEFN)) ;
    OK (gcu_binop_identify (op, &b)) ;
    CHECK (b.op == GCU_OP_USER && strcmp (b.user_defn, MY_ADD_DEFN) == 0 &&
        b.z.code == GCU_T_UDT, "captured operator") ;
    // a user monoid keeps the identity the program gave it, byte for byte
    mytype ident ;
    memset (&ident, 0, sizeof (ident)) ;
    ident.re = 1.5 ;
    ident.n = 3 ;
    GrB_Monoid m = NULL ;
    OK (GrB_Monoid_new_UDT (&m, op, &ident)) ;
    OK (GrB_Semiring_new (&s, m, op)) ;
    OK (gcu_semiring_identify (s, &d)) ;
    CHECK (d.add.op.op == GCU_OP_USER && d.mult.op == GCU_OP_USER &&
        d.add.op.z.code == GCU_T_UDT && !d.add.has_terminal &&
        memcmp (d.add.identity, &ident, sizeof (ident)) == 0, "user semiring") ;
    GrB_Semiring_free (&s) ;
    GrB_Monoid_free (&m) ;
    GrB_BinaryOp_free (&op) ;

    // a type without a definition makes its operators unusable too
    GrB_Type t2 = NULL ;
    OK (GrB_Type_new (&t2, sizeof (mytype))) ;
    OK (gcu_type_identify (t2, &td)) ;
    CHECK (td.code == GCU_T_UDT && td.defn == NULL && td.size == sizeof (mytype),
        "type without definition: described, without definition") ;
    OK (GxB_BinaryOp_new (&op, my_add, t2, t2, t2, "my_add", MY_ADD_DEFN)) ;
    CHECK (gcu_binop_identify (op, &b) == GCU_NOT_HANDLED, "op over a type without definition") ;
    GrB_BinaryOp_free (&op) ;
    GrB_Type_free (&t2) ;
    GrB_Type_free (&t) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    check_builtin_semirings () ;
    check_runtime_semirings () ;
    check_user () ;
    GrB_finalize () ;
    return gcu_test_report ("test_semiring_identify") ;
}
