// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_semiring_table.c — the semiring table is complete and right.
//
//  * Coverage: every GrB_BinaryOp and GrB_Monoid variable declared in the
//    installed GraphBLAS.h (parsed here, so the list follows the header) has
//    exactly one row, under its own name and with that variable's address;
//    no row names anything the header does not declare. The one exception is
//    GxB_IGNORE_DUP, declared as a GrB_BinaryOp but not an operator (a
//    sentinel for the build methods; the library rejects it as one).
//  * Types: the 13 types, their sizes, and every operator's x, y and z types
//    as the library reports them agree with the table's rules.
//  * Monoids: each monoid's operator is its row's operator kind and type; its
//    identity and terminal values, as the library reports them, are the
//    table's, bit for bit (ANY: "every value is terminal").
//  * Lookups by object find the right rows.
#include "gcu_test.h"
#include "../../semirings/gcu_semiring.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GCU_GRAPHBLAS_H
#define GCU_GRAPHBLAS_H NULL      // the path the build recorded, if any
#endif

//------------------------------------------------------------------------------
// GraphBLAS.h
//------------------------------------------------------------------------------

typedef struct { char **name ; int n ; } name_list ;

// every variable of `type` declared as "GB_PUBLIC type a, b, c ;" (n = -1
// when out of memory: the counts below then fail)
static void declared (const char *h, const char *type, name_list *L)
{
    L->n = gcu_test_declared (h, type, &L->name) ;
}

//------------------------------------------------------------------------------

static bool in_list (const name_list *L, const char *name)
{
    for (int k = 0 ; k < L->n ; k++) if (strcmp (L->name [k], name) == 0) return true ;
    return false ;
}

static const char *type_name (GrB_Type t)
{
    const gcu_type_info *ti = gcu_type_builtin (t) ;
    return ti ? ti->grb_name : "(not built-in)" ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    CHECK (h != NULL, "GraphBLAS.h %d.%d not found (set GRBCUDA_GRAPHBLAS_H)",
        GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR) ;
    if (h == NULL) return gcu_test_report ("test_semiring_table") ;
    gcu_test_strip_comments (h) ;
    name_list types = { 0 }, ops = { 0 }, monoids = { 0 } ;
    declared (h, "GrB_Type", &types) ;
    declared (h, "GrB_BinaryOp", &ops) ;
    declared (h, "GrB_Monoid", &monoids) ;
    printf ("%s: %d types, %d binary operators, %d monoids declared\n", path,
        types.n, ops.n, monoids.n) ;
    CHECK (types.n == GCU_NTYPES, "%d types declared", types.n) ;
    CHECK (ops.n > 400 && monoids.n > 100, "the parse found too little") ;

    //--------------------------------------------------------------------------
    // types
    //--------------------------------------------------------------------------

    for (int t = 0 ; t < GCU_NTYPES ; t++)
    {
        const gcu_type_info *ti = &gcu_types [t] ;
        CHECK (ti->code == (gcu_type_code) t, "row %d holds code %d", t, ti->code) ;
        CHECK (in_list (&types, ti->grb_name), "%s not declared", ti->grb_name) ;
        CHECK ((void *) ti->handle == dlsym (RTLD_DEFAULT, ti->grb_name),
            "%s: wrong address", ti->grb_name) ;
        size_t size = 0 ;
        OK (GxB_Type_size (&size, *ti->handle)) ;
        CHECK (size == ti->size, "%s: size %zu, table %zu", ti->grb_name, size, ti->size) ;
        CHECK (gcu_type_builtin (*ti->handle) == ti, "lookup of %s", ti->grb_name) ;
        CHECK (gcu_type_by_name (ti->name) == ti, "lookup of %s by name", ti->name) ;
    }

    //--------------------------------------------------------------------------
    // binary operators: coverage both ways, addresses, types
    //--------------------------------------------------------------------------

    for (int k = 0 ; k < ops.n ; k++)
    {
        const char *name = ops.name [k] ;
        if (strcmp (name, "GxB_IGNORE_DUP") == 0)
        {
            // not an operator: the library refuses to say what its types are
            GrB_Type t = NULL ;
            CHECK (GxB_BinaryOp_xtype (&t, GxB_IGNORE_DUP) != GrB_SUCCESS,
                "GxB_IGNORE_DUP has become an operator: add it to the table") ;
            continue ;
        }
        int found = 0 ;
        for (size_t r = 0 ; r < gcu_nbinops ; r++)
        {
            if (strcmp (gcu_binops [r].name, name) == 0) found++ ;
        }
        CHECK (found == 1, "%s: %d table rows", name, found) ;
    }
    for (size_t r = 0 ; r < gcu_nbinops ; r++)
    {
        const gcu_binop_entry *e = &gcu_binops [r] ;
        CHECK (in_list (&ops, e->name), "table row %s is not in GraphBLAS.h", e->name) ;
        CHECK ((void *) e->handle == dlsym (RTLD_DEFAULT, e->name), "%s: wrong address", e->name) ;
        CHECK (e->op < GCU_NOPS && gcu_ops [e->op].code == e->op, "%s: bad kind", e->name) ;
        GrB_BinaryOp op = *e->handle ;
        GrB_Type xt = NULL, yt = NULL, zt = NULL ;
        OK (GxB_BinaryOp_xtype (&xt, op)) ;
        OK (GxB_BinaryOp_ytype (&yt, op)) ;
        OK (GxB_BinaryOp_ztype (&zt, op)) ;
        CHECK (xt == *gcu_types [e->type].handle, "%s: x is %s", e->name, type_name (xt)) ;
        CHECK (yt == *gcu_types [gcu_op_ytype (e->op, e->type)].handle, "%s: y is %s",
            e->name, type_name (yt)) ;
        CHECK (zt == *gcu_types [gcu_op_ztype (e->op, e->type)].handle, "%s: z is %s",
            e->name, type_name (zt)) ;
        // the lookup finds a row for the same object, of the same semantics
        const gcu_binop_entry *f = gcu_binop_builtin (op) ;
        CHECK (f != NULL && *f->handle == op && f->type == e->type, "lookup of %s", e->name) ;
    }
    printf ("%zu operator rows over %d kinds\n", gcu_nbinops, (int) GCU_NOPS) ;

    //--------------------------------------------------------------------------
    // monoids
    //--------------------------------------------------------------------------

    for (int k = 0 ; k < monoids.n ; k++)
    {
        int found = 0 ;
        for (size_t r = 0 ; r < gcu_nmonoids ; r++)
        {
            if (strcmp (gcu_monoids [r].name, monoids.name [k]) == 0) found++ ;
        }
        CHECK (found == 1, "%s: %d table rows", monoids.name [k], found) ;
    }
    for (size_t r = 0 ; r < gcu_nmonoids ; r++)
    {
        const gcu_monoid_entry *m = &gcu_monoids [r] ;
        CHECK (in_list (&monoids, m->name), "table row %s is not in GraphBLAS.h", m->name) ;
        CHECK ((void *) m->handle == dlsym (RTLD_DEFAULT, m->name), "%s: wrong address", m->name) ;
        GrB_Monoid mon = *m->handle ;
        GrB_BinaryOp op = NULL ;
        OK (GxB_Monoid_operator (&op, mon)) ;
        const gcu_binop_entry *e = gcu_binop_builtin (op) ;
        CHECK (e != NULL, "%s: operator not in the table", m->name) ;
        if (e != NULL)
        {
            // one object may carry two names of the same semantics on bool
            // (GrB_LXNOR is GrB_EQ_BOOL)
            bool same = (e->op == m->op) ||
                (m->type == GCU_T_BOOL && m->op == GCU_OP_LXNOR && e->op == GCU_OP_EQ) ;
            CHECK (same && e->type == m->type, "%s: operator is %s", m->name, e->name) ;
        }
        uint8_t lib [16], table [16] ;
        size_t size = gcu_types [m->type].size ;
        memset (lib, 0, sizeof (lib)) ;
        memset (table, 0, sizeof (table)) ;
        OK (GxB_Monoid_identity (lib, mon)) ;
        bool is_any = false ;
        CHECK (gcu_monoid_builtin_value (m->op, m->type, false, table, &is_any),
            "%s: the table has no identity", m->name) ;
        CHECK (memcmp (lib, table, size) == 0, "%s: identity differs", m->name) ;
        bool has = false ;
        memset (lib, 0, sizeof (lib)) ;
        memset (table, 0, sizeof (table)) ;
        OK (GxB_Monoid_terminal (&has, lib, mon)) ;
        bool table_has = gcu_monoid_builtin_value (m->op, m->type, true, table, &is_any) ;
        if (is_any)
        {
            CHECK (m->op == GCU_OP_ANY, "%s: only ANY is terminal at any value", m->name) ;
        }
        else
        {
            CHECK (has == table_has, "%s: library terminal %d, table %d", m->name, has, table_has) ;
            if (has && table_has)
            {
                CHECK (memcmp (lib, table, size) == 0, "%s: terminal differs", m->name) ;
            }
        }
        const gcu_monoid_entry *f = gcu_monoid_builtin (mon) ;
        CHECK (f != NULL && *f->handle == mon, "lookup of %s", m->name) ;
    }
    printf ("%zu monoid rows\n", gcu_nmonoids) ;

    // lookups of anything else find nothing
    GrB_BinaryOp mine = NULL ;
    CHECK (gcu_binop_builtin (NULL) == NULL && gcu_monoid_builtin (NULL) == NULL &&
        gcu_type_builtin (NULL) == NULL, "NULL lookups") ;
    (void) mine ;

    for (int k = 0 ; k < types.n ; k++) free (types.name [k]) ;
    for (int k = 0 ; k < ops.n ; k++) free (ops.name [k]) ;
    for (int k = 0 ; k < monoids.n ; k++) free (monoids.name [k]) ;
    free (types.name) ; free (ops.name) ; free (monoids.name) ;
    free (h) ;
    GrB_finalize () ;
    return gcu_test_report ("test_semiring_table") ;
}
