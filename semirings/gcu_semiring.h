// gcu_semiring.h — the semiring table (the single source of truth for every
// built-in GraphBLAS 7.4 type, binary operator and monoid) and host-side
// identification of GrB_Semiring / GrB_Monoid / GrB_BinaryOp objects.
//
// Flow: the dispatcher calls gcu_semiring_identify() on the semiring of a
// GrB_mxm; the description it gets back (built-in or captured user parts,
// identity and terminal values read from the object itself) is what the JIT
// (src/jit) turns into a specialised kernel. Internal header, never installed.
#ifndef GCU_SEMIRING_H
#define GCU_SEMIRING_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//------------------------------------------------------------------------------
// types
//------------------------------------------------------------------------------

typedef enum
{
    GCU_T_BOOL = 0, GCU_T_INT8, GCU_T_INT16, GCU_T_INT32, GCU_T_INT64,
    GCU_T_UINT8, GCU_T_UINT16, GCU_T_UINT32, GCU_T_UINT64,
    GCU_T_FP32, GCU_T_FP64, GCU_T_FC32, GCU_T_FC64,
    GCU_NTYPES,
    GCU_T_UDT = 64          // a user-defined type
}
gcu_type_code ;

// what decides an operator's or a cast's semantics; the values match the
// GCU_CLS_* macros of cuda/common/gcu_types.cuh
typedef enum
{
    GCU_CLASS_BOOL = 0, GCU_CLASS_INT, GCU_CLASS_UINT, GCU_CLASS_FLOAT,
    GCU_CLASS_COMPLEX, GCU_CLASS_UDT
}
gcu_type_class ;

typedef struct
{
    gcu_type_code code ;
    const char *name ;          // "INT8": the suffix in GraphBLAS names
    const char *grb_name ;      // "GrB_INT8", "GxB_FC32"
    GrB_Type *handle ;          // &GrB_INT8
    size_t size ;
    const char *cuda ;          // device type name: "int8_t", "gcu_fc32"
    gcu_type_class tclass ;
    int bits ;                  // integer width (0 for non-integers)
}
gcu_type_info ;

extern const gcu_type_info gcu_types [GCU_NTYPES] ;

//------------------------------------------------------------------------------
// operator kinds
//------------------------------------------------------------------------------

// The result type of an operator as a function of its x type.
typedef enum
{
    GCU_Z_SAME = 0,     // z has the type of x
    GCU_Z_BOOL,         // comparisons: z is bool
    GCU_Z_CPLX          // CMPLX: FP32 -> FC32, FP64 -> FC64
}
gcu_zrule ;

typedef enum
{
    GCU_Y_SAME = 0,     // y has the type of x
    GCU_Y_INT8          // BSHIFT: y is always int8
}
gcu_yrule ;

// A monoid's identity or terminal value, as a rule over the type.
typedef enum
{
    GCU_V_NONE = 0,     // no value (no terminal)
    GCU_V_ZERO,         // 0 / false
    GCU_V_ONE,          // 1 / true
    GCU_V_LO,           // the type's minimum; -Inf for floating point
    GCU_V_HI,           // the type's maximum; +Inf for floating point
    GCU_V_ALLONES,      // every bit set
    GCU_V_ZERO_INT,     // 0 for integer types, none otherwise (TIMES)
    GCU_V_LO_INT,       // the minimum of an integer type, none otherwise
    GCU_V_HI_INT,       // the maximum of an integer type, none otherwise
    GCU_V_ANY           // ANY: every value is terminal (stop at the first)
}
gcu_vrule ;

// operator flags
#define GCU_OPF_NO_X       0x1   // the result does not read x
#define GCU_OPF_NO_Y       0x2   // the result does not read y
#define GCU_OPF_POSITIONAL 0x4   // the result is an index (i, k or j)

// The operator kinds. Columns: name, device expression (in x and y, and in
// the row i, shared index k and column j of the product A(i,k)*B(k,j) for the
// positional ones; implemented in cuda/common/gcu_ops.cuh), z rule, y rule,
// flags, monoid identity rule, monoid terminal rule.
#define GCU_OP_LIST(X)                                                                      \
    X (FIRST,     "gcu_first (x, y)",        GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_NO_Y, GCU_V_NONE,    GCU_V_NONE)     \
    X (SECOND,    "gcu_second (x, y)",       GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_NO_X, GCU_V_NONE,    GCU_V_NONE)     \
    X (PAIR,      "gcu_oneb (x, y)",         GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE) \
    X (ANY,       "gcu_any (x, y)",          GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_NO_X, GCU_V_ZERO,    GCU_V_ANY)      \
    X (POW,       "gcu_pow (x, y)",          GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (PLUS,      "gcu_plus (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ZERO,    GCU_V_NONE)     \
    X (MINUS,     "gcu_minus (x, y)",        GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (RMINUS,    "gcu_minus (y, x)",        GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (TIMES,     "gcu_times (x, y)",        GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ONE,     GCU_V_ZERO_INT) \
    X (DIV,       "gcu_div (x, y)",          GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (RDIV,      "gcu_div (y, x)",          GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (ISEQ,      "gcu_iseq (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (ISNE,      "gcu_isne (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (ISGT,      "gcu_isgt (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (ISLT,      "gcu_islt (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (ISGE,      "gcu_isge (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (ISLE,      "gcu_isle (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (MIN,       "gcu_min (x, y)",          GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_HI,      GCU_V_LO_INT)   \
    X (MAX,       "gcu_max (x, y)",          GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_LO,      GCU_V_HI_INT)   \
    X (LOR,       "gcu_lor (x, y)",          GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ZERO,    GCU_V_ONE)      \
    X (LAND,      "gcu_land (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ONE,     GCU_V_ZERO)     \
    X (LXOR,      "gcu_lxor (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ZERO,    GCU_V_NONE)     \
    X (LXNOR,     "gcu_lxnor (x, y)",        GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ONE,     GCU_V_NONE)     \
    X (ATAN2,     "gcu_atan2_op (x, y)",     GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (HYPOT,     "gcu_hypot_op (x, y)",     GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (FMOD,      "gcu_fmod_op (x, y)",      GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (REMAINDER, "gcu_remainder_op (x, y)", GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (COPYSIGN,  "gcu_copysign_op (x, y)",  GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (LDEXP,     "gcu_ldexp (x, y)",        GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (BOR,       "gcu_bor (x, y)",          GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ZERO,    GCU_V_ALLONES)  \
    X (BAND,      "gcu_band (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ALLONES, GCU_V_ZERO)     \
    X (BXOR,      "gcu_bxor (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ZERO,    GCU_V_NONE)     \
    X (BXNOR,     "gcu_bxnor (x, y)",        GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_ALLONES, GCU_V_NONE)     \
    X (BGET,      "gcu_bget (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (BSET,      "gcu_bset (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (BCLR,      "gcu_bclr (x, y)",         GCU_Z_SAME, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (BSHIFT,    "gcu_bshift (x, y)",       GCU_Z_SAME, GCU_Y_INT8, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (EQ,        "gcu_eq (x, y)",           GCU_Z_BOOL, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (NE,        "gcu_ne (x, y)",           GCU_Z_BOOL, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (GT,        "gcu_gt (x, y)",           GCU_Z_BOOL, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (LT,        "gcu_lt (x, y)",           GCU_Z_BOOL, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (GE,        "gcu_ge (x, y)",           GCU_Z_BOOL, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (LE,        "gcu_le (x, y)",           GCU_Z_BOOL, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (CMPLX,     "gcu_cmplx (x, y)",        GCU_Z_CPLX, GCU_Y_SAME, 0, GCU_V_NONE,    GCU_V_NONE)     \
    X (FIRSTI,    "i",                       GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_POSITIONAL | GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE) \
    X (FIRSTI1,   "i + 1",                   GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_POSITIONAL | GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE) \
    X (FIRSTJ,    "k",                       GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_POSITIONAL | GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE) \
    X (FIRSTJ1,   "k + 1",                   GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_POSITIONAL | GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE) \
    X (SECONDI,   "k",                       GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_POSITIONAL | GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE) \
    X (SECONDI1,  "k + 1",                   GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_POSITIONAL | GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE) \
    X (SECONDJ,   "j",                       GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_POSITIONAL | GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE) \
    X (SECONDJ1,  "j + 1",                   GCU_Z_SAME, GCU_Y_SAME, GCU_OPF_POSITIONAL | GCU_OPF_NO_X | GCU_OPF_NO_Y, GCU_V_NONE, GCU_V_NONE)

typedef enum
{
    #define GCU_OP_ENUM(name, expr, z, y, f, id, term) GCU_OP_ ## name,
    GCU_OP_LIST (GCU_OP_ENUM)
    #undef GCU_OP_ENUM
    GCU_NOPS,
    GCU_OP_USER = 100       // a user-defined operator (definition captured)
}
gcu_opcode ;

typedef struct
{
    gcu_opcode code ;
    const char *name ;      // "PLUS"
    const char *expr ;      // device expression
    gcu_zrule zrule ;
    gcu_yrule yrule ;
    unsigned flags ;        // GCU_OPF_*
    gcu_vrule identity ;    // as a monoid's operator
    gcu_vrule terminal ;
}
gcu_op_info ;

extern const gcu_op_info gcu_ops [GCU_NOPS] ;

//------------------------------------------------------------------------------
// the built-in GrB_BinaryOp and GrB_Monoid objects of GraphBLAS.h
//------------------------------------------------------------------------------

// One row per name declared in GraphBLAS.h. Several names can denote one
// object (GrB_ONEB_T and GxB_PAIR_T, GrB_LOR and GxB_LOR_BOOL, the GxB_ and
// GrB_ names of a monoid); each has its own row.
typedef struct
{
    GrB_BinaryOp *handle ;  // &GrB_PLUS_FP64
    const char *name ;      // "GrB_PLUS_FP64"
    gcu_opcode op ;
    gcu_type_code type ;    // the type in the name: the x type
}
gcu_binop_entry ;

typedef struct
{
    GrB_Monoid *handle ;    // &GrB_PLUS_MONOID_FP64
    const char *name ;
    gcu_opcode op ;
    gcu_type_code type ;
}
gcu_monoid_entry ;

extern const gcu_binop_entry gcu_binops [] ;
extern const size_t gcu_nbinops ;
extern const gcu_monoid_entry gcu_monoids [] ;
extern const size_t gcu_nmonoids ;

// x, y, z types of a built-in operator of kind op whose name has type t
gcu_type_code gcu_op_ztype (gcu_opcode op, gcu_type_code t) ;
gcu_type_code gcu_op_ytype (gcu_opcode op, gcu_type_code t) ;

// The built-in identity or terminal value of a monoid of kind op over type t,
// written to value (at least gcu_types[t].size bytes). Returns false if the
// rule gives no value (no terminal; or not a monoid operator). For ANY, the
// terminal is "any value": *is_any is set and nothing is written.
bool gcu_monoid_builtin_value (gcu_opcode op, gcu_type_code t, bool terminal,
    void *value, bool *is_any) ;

// lookups by object (NULL if the object is not a built-in one)
const gcu_type_info    *gcu_type_builtin   (GrB_Type type) ;
const gcu_binop_entry  *gcu_binop_builtin  (GrB_BinaryOp op) ;
const gcu_monoid_entry *gcu_monoid_builtin (GrB_Monoid monoid) ;
const gcu_type_info    *gcu_type_by_name   (const char *name) ;   // "FP64"

// the built-in operator (monoid) of kind op whose name has type t
// ("GrB_FIRST_FP64" for FIRST, FP64), or NULL if GraphBLAS.h has none
GrB_BinaryOp gcu_binop_of  (gcu_opcode op, gcu_type_code t) ;
GrB_Monoid   gcu_monoid_of (gcu_opcode op, gcu_type_code t) ;

// false for an operator the device computes through its own math library
// (pow, atan2, hypot: a few ulps from the host C library's, e.g. pow (2, 11)
// = 2047.99..., which an integer type truncates)
bool gcu_op_device_exact (gcu_opcode op) ;

// true for an operator that is neither commutative nor one with a flipped
// twin (POW, ATAN2, FMOD, REMAINDER, COPYSIGN, LDEXP, the bit operators,
// CMPLX, a user's): SuiteSparse 7.4's matrix eWiseMult computes it as
// op (b, a) where A is iso and held bitmap or full and B sparse or
// hypersparse (src/mxm/mxm_ewise.c)
bool gcu_op_emult_flips (gcu_opcode op) ;

// s = the value at v, of built-in type t (s of that type): the typed
// GrB_Scalar_setElement; GrB_DOMAIN_MISMATCH for a t out of range
GrB_Info gcu_scalar_set_builtin (GrB_Scalar s, gcu_type_code t, const void *v) ;

// v = s's value cast to built-in type t (SuiteSparse's cast): the typed
// GrB_Scalar_extractElement (GrB_NO_VALUE when s has no entry);
// GrB_DOMAIN_MISMATCH for a t out of range
GrB_Info gcu_scalar_get_builtin (void *v, gcu_type_code t, GrB_Scalar s) ;

//------------------------------------------------------------------------------
// host identification of run-time objects
//------------------------------------------------------------------------------

// the largest value (identity, terminal) carried in a description; a user
// type larger than this runs on the host
#define GCU_VALUE_MAX 256

typedef struct
{
    gcu_type_code code ;        // built-in code, or GCU_T_UDT
    GrB_Type handle ;
    size_t size ;
    const char *cuda ;          // device type name (the user's name for a UDT)
    const char *defn ;          // UDT: its C definition; NULL for built-ins,
                                // and for a UDT whose definition is unknown
}
gcu_type_desc ;

typedef struct
{
    GrB_BinaryOp handle ;
    const gcu_binop_entry *builtin ;    // NULL for a user-defined operator
    gcu_opcode op ;                     // GCU_OP_USER for a user operator
    unsigned flags ;                    // GCU_OPF_*
    gcu_type_desc x, y, z ;
    const char *user_name ;             // user operator: function name
    const char *user_defn ;             // ... and its definition
}
gcu_binop_desc ;

typedef struct
{
    GrB_Monoid handle ;
    const gcu_monoid_entry *builtin ;   // NULL if assembled at run time
    gcu_binop_desc op ;
    bool is_any ;                       // ANY: stop at the first value
    bool has_terminal ;
    uint8_t identity [GCU_VALUE_MAX] ;  // op.z.size bytes
    uint8_t terminal [GCU_VALUE_MAX] ;
}
gcu_monoid_desc ;

typedef struct
{
    GrB_Semiring handle ;
    gcu_monoid_desc add ;
    gcu_binop_desc mult ;
}
gcu_semiring_desc ;

// false when the semiring's multiply or monoid is not gcu_op_device_exact:
// the GPU families leave such products to SuiteSparse
bool gcu_semiring_device_exact (const gcu_semiring_desc *sr) ;

// PLUS_TIMES on one floating type (the monoid's and the multiply's types
// all FP32 or all FP64): the kernels that may sum with the GPU's own + and *
// (SpMV, SpMM, SDDMM), a NaN's sum redone with the host's rules
bool gcu_semiring_plus_times_float (const gcu_semiring_desc *sr) ;

// Decompose the object and map its parts to the table (or to captured user
// definitions). GCU_NOT_HANDLED if an operator, or a type an operator works
// on, is user-defined without a known definition, or anything is unusable on
// the GPU; GrB_NULL_POINTER if an argument is NULL. gcu_type_identify
// describes a user type without definition (defn NULL; the JIT can still use
// it for an operand the multiply never reads). Identity and terminal values are read from the object itself, so a
// monoid built with GrB_Monoid_new from a built-in operator is described
// exactly as the program built it.
GrB_Info gcu_type_identify     (GrB_Type type, gcu_type_desc *d) ;
GrB_Info gcu_binop_identify    (GrB_BinaryOp op, gcu_binop_desc *d) ;
GrB_Info gcu_monoid_identify   (GrB_Monoid monoid, gcu_monoid_desc *d) ;
GrB_Info gcu_semiring_identify (GrB_Semiring semiring, gcu_semiring_desc *d) ;

#endif
