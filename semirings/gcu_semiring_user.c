// gcu_semiring_user.c — the C definitions of user-defined types and binary
// operators, so that semirings built from them can run on the GPU: recorded
// by the interposed GxB_Type_new / GxB_BinaryOp_new (src/api/user.c: the
// definition strings are their last argument), cleared by GrB_Type_new /
// GrB_BinaryOp_new (no definition: a handle reused after a free never keeps a
// stale one), set by grbcuda_register_type / grbcuda_register_binop for
// objects created without one; read by the identification of semirings
// (gcu_semiring_identify.c) and so by the JIT. Strings are interned (kept for
// the life of the process, one copy per distinct text), so a lookup can hand
// out pointers without copying and without a use-after-free if a record is
// replaced.
#include "gcu_semiring_user.h"
#include "../src/util/gcu_util.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
bool gcu_user_identifier (const char *s)
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
    bool usable = (defn != NULL && gcu_user_identifier (name)) ;
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

bool gcu_user_type_record (GrB_Type type, const char *name, const char *defn)
{
    return gcu_user_set_rec (&gcu_user_types, type, name, defn) ;
}

bool gcu_user_binop_record (GrB_BinaryOp op, const char *name, const char *defn)
{
    return gcu_user_set_rec (&gcu_user_ops, op, name, defn) ;
}
