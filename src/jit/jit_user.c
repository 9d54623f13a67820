// jit_user.c — capture the C definitions of user-defined types and binary
// operators, so that semirings built from them can run on the GPU.
//
// grbcuda interposes GxB_Type_new and GxB_BinaryOp_new (the definition
// strings are their last argument) and GrB_Type_new / GrB_BinaryOp_new (no
// definition: the record is cleared, so a handle reused after a free never
// keeps a stale definition). Each calls the real SuiteSparse function through
// gcu_real_sym and, on success, records name + definition keyed by the new
// handle. grbcuda_register_type / grbcuda_register_binop add CUDA source for
// objects created without one. Strings are interned (kept for the life of the
// process, one copy per distinct text), so a lookup can hand out pointers
// without copying and without a use-after-free if a record is replaced.
#include "gcu_jit_user.h"
#include "gcu_jit_public.h"
#include "../util/gcu_util.h"
#include "../api/gcu_real.h"
#include "../../semirings/gcu_semiring.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// GraphBLAS.h defines these two names as macros over GxB_*_new; the library
// also exports them as functions, which is what we interpose here.
#undef GrB_Type_new
#undef GrB_BinaryOp_new

static pthread_mutex_t gcu_user_lock = PTHREAD_MUTEX_INITIALIZER ;

//------------------------------------------------------------------------------
// interned strings (call with the lock held)
//------------------------------------------------------------------------------

typedef struct gcu_interned
{
    struct gcu_interned *next ;
    char text [] ;
}
gcu_interned ;

static gcu_interned *gcu_intern_list = NULL ;

static const char *gcu_intern (const char *text)
{
    if (text == NULL) return NULL ;
    for (gcu_interned *p = gcu_intern_list ; p != NULL ; p = p->next)
    {
        if (strcmp (p->text, text) == 0) return p->text ;
    }
    size_t len = strlen (text) ;
    gcu_interned *p = malloc (sizeof (gcu_interned) + len + 1) ;
    if (p == NULL) return NULL ;
    memcpy (p->text, text, len + 1) ;
    p->next = gcu_intern_list ;
    gcu_intern_list = p ;
    return p->text ;
}

//------------------------------------------------------------------------------
// records: handle -> (name, definition)
//------------------------------------------------------------------------------

typedef struct
{
    const void *handle ;
    const char *name ;
    const char *defn ;      // NULL: known to have no usable definition
}
gcu_user_rec ;

typedef struct
{
    gcu_user_rec *rec ;
    size_t n, cap ;
}
gcu_user_set ;

static gcu_user_set gcu_user_types = { NULL, 0, 0 } ;
static gcu_user_set gcu_user_ops   = { NULL, 0, 0 } ;

// a name pasted into generated code must be a C identifier
static bool gcu_is_identifier (const char *s)
{
    if (s == NULL || !(isalpha ((unsigned char) s [0]) || s [0] == '_')) return false ;
    for (const char *p = s ; *p ; p++)
    {
        if (!(isalnum ((unsigned char) *p) || *p == '_')) return false ;
    }
    return (strlen (s) < GxB_MAX_NAME_LEN) ;
}

// set (or clear, when defn is NULL) the record of handle; false if out of memory
static bool gcu_user_set_rec (gcu_user_set *set, const void *handle,
    const char *name, const char *defn)
{
    if (handle == NULL) return true ;
    bool usable = (defn != NULL && gcu_is_identifier (name)) ;
    pthread_mutex_lock (&gcu_user_lock) ;
    const char *iname = usable ? gcu_intern (name) : NULL ;
    const char *idefn = usable ? gcu_intern (defn) : NULL ;
    bool ok = !usable || (iname != NULL && idefn != NULL) ;
    if (!ok) { iname = NULL ; idefn = NULL ; }
    size_t k = 0 ;
    while (k < set->n && set->rec [k].handle != handle) k++ ;
    if (k == set->n)
    {
        if (idefn == NULL)
        {
            // nothing known and nothing to clear
            pthread_mutex_unlock (&gcu_user_lock) ;
            return ok ;
        }
        if (set->n == set->cap)
        {
            size_t cap = (set->cap == 0) ? 16 : 2 * set->cap ;
            gcu_user_rec *rec = realloc (set->rec, cap * sizeof (gcu_user_rec)) ;
            if (rec == NULL)
            {
                pthread_mutex_unlock (&gcu_user_lock) ;
                return false ;
            }
            set->rec = rec ;
            set->cap = cap ;
        }
        set->n++ ;
    }
    set->rec [k].handle = handle ;
    set->rec [k].name = iname ;
    set->rec [k].defn = idefn ;
    pthread_mutex_unlock (&gcu_user_lock) ;
    return ok ;
}

static bool gcu_user_get (gcu_user_set *set, const void *handle,
    const char **name, const char **defn)
{
    bool found = false ;
    pthread_mutex_lock (&gcu_user_lock) ;
    for (size_t k = 0 ; k < set->n ; k++)
    {
        if (set->rec [k].handle == handle && set->rec [k].defn != NULL)
        {
            if (name != NULL) *name = set->rec [k].name ;
            if (defn != NULL) *defn = set->rec [k].defn ;
            found = true ;
            break ;
        }
    }
    pthread_mutex_unlock (&gcu_user_lock) ;
    return found ;
}

bool gcu_user_type_lookup (GrB_Type type, const char **name, const char **defn)
{
    return gcu_user_get (&gcu_user_types, type, name, defn) ;
}

bool gcu_user_binop_lookup (GrB_BinaryOp op, const char **name, const char **defn)
{
    return gcu_user_get (&gcu_user_ops, op, name, defn) ;
}

//------------------------------------------------------------------------------
// interposed constructors
//------------------------------------------------------------------------------

typedef GrB_Info (*gcu_type_new_f) (GrB_Type *, size_t, const char *, const char *) ;
typedef GrB_Info (*gcu_grb_type_new_f) (GrB_Type *, size_t) ;
typedef GrB_Info (*gcu_binop_new_f) (GrB_BinaryOp *, GxB_binary_function,
    GrB_Type, GrB_Type, GrB_Type, const char *, const char *) ;
typedef GrB_Info (*gcu_grb_binop_new_f) (GrB_BinaryOp *, GxB_binary_function,
    GrB_Type, GrB_Type, GrB_Type) ;

GrB_Info GxB_Type_new (GrB_Type *type, size_t sizeof_ctype,
    const char *type_name, const char *type_defn)
{
    gcu_type_new_f real = (gcu_type_new_f) gcu_real_sym ("GxB_Type_new") ;
    if (real == NULL) return GrB_PANIC ;
    GrB_Info info = real (type, sizeof_ctype, type_name, type_defn) ;
    if (info == GrB_SUCCESS && type != NULL)
    {
        if (!gcu_user_set_rec (&gcu_user_types, *type, type_name, type_defn))
        {
            gcu_log ("out of memory recording the definition of type %s",
                type_name ? type_name : "(unnamed)") ;
        }
    }
    return info ;
}

GrB_Info GrB_Type_new (GrB_Type *type, size_t sizeof_ctype)
{
    gcu_grb_type_new_f real = (gcu_grb_type_new_f) gcu_real_sym ("GrB_Type_new") ;
    if (real == NULL) return GrB_PANIC ;
    GrB_Info info = real (type, sizeof_ctype) ;
    if (info == GrB_SUCCESS && type != NULL)
    {
        gcu_user_set_rec (&gcu_user_types, *type, NULL, NULL) ;
    }
    return info ;
}

GrB_Info GxB_BinaryOp_new (GrB_BinaryOp *op, GxB_binary_function function,
    GrB_Type ztype, GrB_Type xtype, GrB_Type ytype, const char *binop_name,
    const char *binop_defn)
{
    gcu_binop_new_f real = (gcu_binop_new_f) gcu_real_sym ("GxB_BinaryOp_new") ;
    if (real == NULL) return GrB_PANIC ;
    GrB_Info info = real (op, function, ztype, xtype, ytype, binop_name, binop_defn) ;
    if (info == GrB_SUCCESS && op != NULL)
    {
        if (!gcu_user_set_rec (&gcu_user_ops, *op, binop_name, binop_defn))
        {
            gcu_log ("out of memory recording the definition of operator %s",
                binop_name ? binop_name : "(unnamed)") ;
        }
    }
    return info ;
}

GrB_Info GrB_BinaryOp_new (GrB_BinaryOp *op, GxB_binary_function function,
    GrB_Type ztype, GrB_Type xtype, GrB_Type ytype)
{
    gcu_grb_binop_new_f real = (gcu_grb_binop_new_f) gcu_real_sym ("GrB_BinaryOp_new") ;
    if (real == NULL) return GrB_PANIC ;
    GrB_Info info = real (op, function, ztype, xtype, ytype) ;
    if (info == GrB_SUCCESS && op != NULL)
    {
        gcu_user_set_rec (&gcu_user_ops, *op, NULL, NULL) ;
    }
    return info ;
}

//------------------------------------------------------------------------------
// public registration
//------------------------------------------------------------------------------

GrB_Info grbcuda_register_type (GrB_Type type, const char *type_name,
    const char *cuda_defn)
{
    if (type == NULL || type_name == NULL || cuda_defn == NULL) return GrB_NULL_POINTER ;
    if (gcu_type_builtin (type) != NULL || !gcu_is_identifier (type_name))
    {
        return GrB_INVALID_VALUE ;
    }
    return gcu_user_set_rec (&gcu_user_types, type, type_name, cuda_defn)
        ? GrB_SUCCESS : GrB_OUT_OF_MEMORY ;
}

GrB_Info grbcuda_register_binop (GrB_BinaryOp op, const char *function_name,
    const char *cuda_defn)
{
    if (op == NULL || function_name == NULL || cuda_defn == NULL) return GrB_NULL_POINTER ;
    if (gcu_binop_builtin (op) != NULL || !gcu_is_identifier (function_name))
    {
        return GrB_INVALID_VALUE ;
    }
    return gcu_user_set_rec (&gcu_user_ops, op, function_name, cuda_defn)
        ? GrB_SUCCESS : GrB_OUT_OF_MEMORY ;
}
