// gcu_semiring_table.c — THE table: every built-in type, operator kind,
// GrB_BinaryOp and GrB_Monoid of SuiteSparse:GraphBLAS 7.4, with what the
// device needs to know about each. Host identification, the JIT and the tests
// all read it; tests/cpu/test_semiring_table.c checks it against the names
// declared in the installed GraphBLAS.h and against the library's own
// identity/terminal values.
#include "gcu_semiring.h"

#include <math.h>
#include <string.h>

//------------------------------------------------------------------------------
// types
//------------------------------------------------------------------------------

#define GCU_TYPE(T, pfx, size, cuda, cls, bits) \
    { GCU_T_ ## T, #T, #pfx "_" #T, &pfx ## _ ## T, size, cuda, cls, bits }

const gcu_type_info gcu_types [GCU_NTYPES] =
{
    GCU_TYPE (BOOL,   GrB, sizeof (bool),         "bool",     GCU_CLASS_BOOL,    0),
    GCU_TYPE (INT8,   GrB, sizeof (int8_t),       "int8_t",   GCU_CLASS_INT,     8),
    GCU_TYPE (INT16,  GrB, sizeof (int16_t),      "int16_t",  GCU_CLASS_INT,    16),
    GCU_TYPE (INT32,  GrB, sizeof (int32_t),      "int32_t",  GCU_CLASS_INT,    32),
    GCU_TYPE (INT64,  GrB, sizeof (int64_t),      "int64_t",  GCU_CLASS_INT,    64),
    GCU_TYPE (UINT8,  GrB, sizeof (uint8_t),      "uint8_t",  GCU_CLASS_UINT,    8),
    GCU_TYPE (UINT16, GrB, sizeof (uint16_t),     "uint16_t", GCU_CLASS_UINT,   16),
    GCU_TYPE (UINT32, GrB, sizeof (uint32_t),     "uint32_t", GCU_CLASS_UINT,   32),
    GCU_TYPE (UINT64, GrB, sizeof (uint64_t),     "uint64_t", GCU_CLASS_UINT,   64),
    GCU_TYPE (FP32,   GrB, sizeof (float),        "float",    GCU_CLASS_FLOAT,   0),
    GCU_TYPE (FP64,   GrB, sizeof (double),       "double",   GCU_CLASS_FLOAT,   0),
    GCU_TYPE (FC32,   GxB, sizeof (GxB_FC32_t),   "gcu_fc32", GCU_CLASS_COMPLEX, 0),
    GCU_TYPE (FC64,   GxB, sizeof (GxB_FC64_t),   "gcu_fc64", GCU_CLASS_COMPLEX, 0),
} ;

//------------------------------------------------------------------------------
// operator kinds
//------------------------------------------------------------------------------

const gcu_op_info gcu_ops [GCU_NOPS] =
{
    #define GCU_OP_ROW(name, expr, z, y, f, id, term) \
        { GCU_OP_ ## name, #name, expr, z, y, f, id, term },
    GCU_OP_LIST (GCU_OP_ROW)
    #undef GCU_OP_ROW
} ;

//------------------------------------------------------------------------------
// binary operators: one row per name in GraphBLAS.h
//------------------------------------------------------------------------------

// a row named pfx_NAME_T, of operator kind OP and type T
#define B(pfx, NAME, OP, T) \
    { &pfx ## _ ## NAME ## _ ## T, #pfx "_" #NAME "_" #T, GCU_OP_ ## OP, GCU_T_ ## T },
// a row named pfx_NAME (no type suffix: the boolean GrB_LOR ... GrB_LXNOR)
#define B0(pfx, NAME, OP, T) \
    { &pfx ## _ ## NAME, #pfx "_" #NAME, GCU_OP_ ## OP, GCU_T_ ## T },

// the type sets names come in
#define REAL11(F, p, N, O) F (p, N, O, BOOL) F (p, N, O, INT8) F (p, N, O, INT16)  \
    F (p, N, O, INT32) F (p, N, O, INT64) F (p, N, O, UINT8) F (p, N, O, UINT16)    \
    F (p, N, O, UINT32) F (p, N, O, UINT64) F (p, N, O, FP32) F (p, N, O, FP64)
#define CPLX2(F, p, N, O)  F (p, N, O, FC32) F (p, N, O, FC64)
#define INT8T(F, p, N, O)  F (p, N, O, INT8) F (p, N, O, INT16) F (p, N, O, INT32) \
    F (p, N, O, INT64) F (p, N, O, UINT8) F (p, N, O, UINT16) F (p, N, O, UINT32)   \
    F (p, N, O, UINT64)
#define FLT2(F, p, N, O)   F (p, N, O, FP32) F (p, N, O, FP64)
#define IDX2(F, p, N, O)   F (p, N, O, INT32) F (p, N, O, INT64)
// non-boolean reals, and unsigned integers (the monoid type sets)
#define REAL10(F, p, N, O) F (p, N, O, INT8) F (p, N, O, INT16) F (p, N, O, INT32)  \
    F (p, N, O, INT64) F (p, N, O, UINT8) F (p, N, O, UINT16) F (p, N, O, UINT32)   \
    F (p, N, O, UINT64) F (p, N, O, FP32) F (p, N, O, FP64)
#define UINT4(F, p, N, O)  F (p, N, O, UINT8) F (p, N, O, UINT16) F (p, N, O, UINT32) \
    F (p, N, O, UINT64)

// an operator over all 13 types whose real names are GrB_ and complex GxB_
#define ALL13_GRB(N, O) REAL11 (B, GrB, N, O) CPLX2 (B, GxB, N, O)
// an operator over all 13 types, all GxB_
#define ALL13_GXB(N, O) REAL11 (B, GxB, N, O) CPLX2 (B, GxB, N, O)

const gcu_binop_entry gcu_binops [] =
{
    // z = x, z = y, z = 1, z = pow (x,y): all 13 types
    ALL13_GRB (FIRST,  FIRST)
    ALL13_GRB (SECOND, SECOND)
    ALL13_GRB (ONEB,   PAIR)
    ALL13_GXB (POW,    POW)
    // z = x+y, x-y, x*y, x/y: all 13 types
    ALL13_GRB (PLUS,   PLUS)
    ALL13_GRB (MINUS,  MINUS)
    ALL13_GRB (TIMES,  TIMES)
    ALL13_GRB (DIV,    DIV)
    // z = y-x, y/x, 1, any (x,y): all 13 types
    ALL13_GXB (RMINUS, RMINUS)
    ALL13_GXB (RDIV,   RDIV)
    ALL13_GXB (PAIR,   PAIR)
    ALL13_GXB (ANY,    ANY)
    // z = (x == y), (x != y) in the type of x: all 13 types
    ALL13_GXB (ISEQ,   ISEQ)
    ALL13_GXB (ISNE,   ISNE)
    // z = (x > y) ... in the type of x: real types
    REAL11 (B, GxB, ISGT, ISGT)
    REAL11 (B, GxB, ISLT, ISLT)
    REAL11 (B, GxB, ISGE, ISGE)
    REAL11 (B, GxB, ISLE, ISLE)
    // min, max: real types
    REAL11 (B, GrB, MIN, MIN)
    REAL11 (B, GrB, MAX, MAX)
    // logical operators in the type of x: real types
    REAL11 (B, GxB, LOR,  LOR)
    REAL11 (B, GxB, LAND, LAND)
    REAL11 (B, GxB, LXOR, LXOR)
    // the purely boolean names
    B0 (GrB, LOR,   LOR,   BOOL)
    B0 (GrB, LAND,  LAND,  BOOL)
    B0 (GrB, LXOR,  LXOR,  BOOL)
    B0 (GrB, LXNOR, LXNOR, BOOL)
    // floating-point only
    FLT2 (B, GxB, ATAN2,     ATAN2)
    FLT2 (B, GxB, HYPOT,     HYPOT)
    FLT2 (B, GxB, FMOD,      FMOD)
    FLT2 (B, GxB, REMAINDER, REMAINDER)
    FLT2 (B, GxB, LDEXP,     LDEXP)
    FLT2 (B, GxB, COPYSIGN,  COPYSIGN)
    // bitwise: integer types
    INT8T (B, GrB, BOR,   BOR)
    INT8T (B, GrB, BAND,  BAND)
    INT8T (B, GrB, BXOR,  BXOR)
    INT8T (B, GrB, BXNOR, BXNOR)
    INT8T (B, GxB, BGET,  BGET)
    INT8T (B, GxB, BSET,  BSET)
    INT8T (B, GxB, BCLR,  BCLR)
    INT8T (B, GxB, BSHIFT, BSHIFT)
    // comparisons with a boolean result: real types, EQ and NE also complex
    REAL11 (B, GrB, EQ, EQ)  CPLX2 (B, GxB, EQ, EQ)
    REAL11 (B, GrB, NE, NE)  CPLX2 (B, GxB, NE, NE)
    REAL11 (B, GrB, GT, GT)
    REAL11 (B, GrB, LT, LT)
    REAL11 (B, GrB, GE, GE)
    REAL11 (B, GrB, LE, LE)
    // z = complex (x,y)
    FLT2 (B, GxB, CMPLX, CMPLX)
    // positional: the result is an index, INT32 or INT64
    IDX2 (B, GxB, FIRSTI,   FIRSTI)
    IDX2 (B, GxB, FIRSTI1,  FIRSTI1)
    IDX2 (B, GxB, FIRSTJ,   FIRSTJ)
    IDX2 (B, GxB, FIRSTJ1,  FIRSTJ1)
    IDX2 (B, GxB, SECONDI,  SECONDI)
    IDX2 (B, GxB, SECONDI1, SECONDI1)
    IDX2 (B, GxB, SECONDJ,  SECONDJ)
    IDX2 (B, GxB, SECONDJ1, SECONDJ1)
} ;

const size_t gcu_nbinops = sizeof (gcu_binops) / sizeof (gcu_binops [0]) ;

//------------------------------------------------------------------------------
// monoids: one row per name in GraphBLAS.h
//------------------------------------------------------------------------------

// GxB_OP_T_MONOID (historical names) and GrB_OP_MONOID_T (v1.3 names)
#define MX(pfx, NAME, OP, T) \
    { &pfx ## _ ## NAME ## _ ## T ## _MONOID, #pfx "_" #NAME "_" #T "_MONOID", GCU_OP_ ## OP, GCU_T_ ## T },
#define MR(pfx, NAME, OP, T) \
    { &pfx ## _ ## NAME ## _MONOID_ ## T, #pfx "_" #NAME "_MONOID_" #T, GCU_OP_ ## OP, GCU_T_ ## T },

const gcu_monoid_entry gcu_monoids [] =
{
    REAL10 (MX, GxB, MIN, MIN)      REAL10 (MR, GrB, MIN, MIN)
    REAL10 (MX, GxB, MAX, MAX)      REAL10 (MR, GrB, MAX, MAX)
    REAL10 (MX, GxB, PLUS, PLUS)    REAL10 (MR, GrB, PLUS, PLUS)
    CPLX2 (MX, GxB, PLUS, PLUS)
    REAL10 (MX, GxB, TIMES, TIMES)  REAL10 (MR, GrB, TIMES, TIMES)
    CPLX2 (MX, GxB, TIMES, TIMES)
    REAL11 (MX, GxB, ANY, ANY)      CPLX2 (MX, GxB, ANY, ANY)
    MX (GxB, LOR,   LOR,   BOOL)
    MX (GxB, LAND,  LAND,  BOOL)
    MX (GxB, LXOR,  LXOR,  BOOL)
    MX (GxB, LXNOR, LXNOR, BOOL)
    MX (GxB, EQ,    LXNOR, BOOL)    // GxB_EQ_BOOL_MONOID: another name of LXNOR
    MR (GrB, LOR,   LOR,   BOOL)
    MR (GrB, LAND,  LAND,  BOOL)
    MR (GrB, LXOR,  LXOR,  BOOL)
    MR (GrB, LXNOR, LXNOR, BOOL)
    UINT4 (MX, GxB, BOR,   BOR)
    UINT4 (MX, GxB, BAND,  BAND)
    UINT4 (MX, GxB, BXOR,  BXOR)
    UINT4 (MX, GxB, BXNOR, BXNOR)
} ;

const size_t gcu_nmonoids = sizeof (gcu_monoids) / sizeof (gcu_monoids [0]) ;

//------------------------------------------------------------------------------
// rules
//------------------------------------------------------------------------------

gcu_type_code gcu_op_ztype (gcu_opcode op, gcu_type_code t)
{
    if (op >= GCU_NOPS) return t ;
    switch (gcu_ops [op].zrule)
    {
        case GCU_Z_BOOL: return GCU_T_BOOL ;
        case GCU_Z_CPLX: return (t == GCU_T_FP32) ? GCU_T_FC32 : GCU_T_FC64 ;
        default:         return t ;
    }
}

gcu_type_code gcu_op_ytype (gcu_opcode op, gcu_type_code t)
{
    if (op < GCU_NOPS && gcu_ops [op].yrule == GCU_Y_INT8) return GCU_T_INT8 ;
    return t ;
}

// write v, held as the widest value of its class, in type t
static void gcu_store (gcu_type_code t, int64_t i, uint64_t u, double f,
    void *value)
{
    switch (gcu_types [t].tclass)
    {
        case GCU_CLASS_BOOL:  { bool b = (u != 0) ; memcpy (value, &b, 1) ; } break ;
        case GCU_CLASS_INT:   { int bytes = gcu_types [t].bits / 8 ;
                                // little-endian: the low bytes of the int64
                                memcpy (value, &i, bytes) ; } break ;
        case GCU_CLASS_UINT:  memcpy (value, &u, gcu_types [t].bits / 8) ; break ;
        case GCU_CLASS_FLOAT:
            if (t == GCU_T_FP32) { float x = (float) f ; memcpy (value, &x, 4) ; }
            else                 { memcpy (value, &f, 8) ; }
            break ;
        default:    // complex: (f, 0)
            if (t == GCU_T_FC32) { float x [2] = { (float) f, 0 } ; memcpy (value, x, 8) ; }
            else                 { double x [2] = { f, 0 } ; memcpy (value, x, 16) ; }
            break ;
    }
}

bool gcu_monoid_builtin_value (gcu_opcode op, gcu_type_code t, bool terminal,
    void *value, bool *is_any)
{
    if (is_any != NULL) *is_any = false ;
    if (op >= GCU_NOPS || t >= GCU_NTYPES) return false ;
    gcu_vrule rule = terminal ? gcu_ops [op].terminal : gcu_ops [op].identity ;
    const gcu_type_info *ti = &gcu_types [t] ;
    bool integer = (ti->tclass == GCU_CLASS_INT || ti->tclass == GCU_CLASS_UINT) ;
    int bits = ti->bits ;
    // the extreme values of an integer type
    int64_t  imin = (ti->tclass == GCU_CLASS_INT) ? -(int64_t) ((bits == 64) ?
        (uint64_t) INT64_MAX : ((UINT64_C (1) << (bits - 1)) - 1)) - 1 : 0 ;
    int64_t  imax = (ti->tclass == GCU_CLASS_INT) ? (int64_t) ((bits == 64) ?
        (uint64_t) INT64_MAX : ((UINT64_C (1) << (bits - 1)) - 1)) : 0 ;
    uint64_t umax = (bits == 64) ? UINT64_MAX : (bits > 0 ? (UINT64_C (1) << bits) - 1 : 1) ;
    switch (rule)
    {
        case GCU_V_NONE: return false ;
        case GCU_V_ANY:  if (is_any != NULL) *is_any = true ; return false ;
        case GCU_V_ZERO_INT:
            if (!integer) return false ;
            gcu_store (t, 0, 0, 0, value) ; return true ;
        case GCU_V_LO_INT:
            if (!integer) return false ;
            gcu_store (t, imin, 0, 0, value) ; return true ;
        case GCU_V_HI_INT:
            if (!integer) return false ;
            gcu_store (t, imax, umax, 0, value) ; return true ;
        case GCU_V_ZERO: gcu_store (t, 0, 0, 0, value) ; return true ;
        case GCU_V_ONE:  gcu_store (t, 1, 1, 1, value) ; return true ;
        case GCU_V_LO:   gcu_store (t, imin, 0, -INFINITY, value) ; return true ;
        case GCU_V_HI:   gcu_store (t, imax, umax, INFINITY, value) ; return true ;
        case GCU_V_ALLONES:
            if (ti->tclass == GCU_CLASS_BOOL) { gcu_store (t, 1, 1, 1, value) ; return true ; }
            if (!integer) return false ;
            gcu_store (t, -1, UINT64_MAX, 0, value) ; return true ;
        default: return false ;
    }
}

//------------------------------------------------------------------------------
// lookups by object
//------------------------------------------------------------------------------

const gcu_type_info *gcu_type_builtin (GrB_Type type)
{
    if (type == NULL) return NULL ;
    for (int t = 0 ; t < GCU_NTYPES ; t++)
    {
        if (*gcu_types [t].handle == type) return &gcu_types [t] ;
    }
    return NULL ;
}

const gcu_type_info *gcu_type_by_name (const char *name)
{
    if (name == NULL) return NULL ;
    for (int t = 0 ; t < GCU_NTYPES ; t++)
    {
        if (strcmp (gcu_types [t].name, name) == 0) return &gcu_types [t] ;
    }
    return NULL ;
}

// A linear scan: 449 pointer compares cost well under a microsecond, far
// below anything worth sending to a GPU, and the table stays a plain array.
const gcu_binop_entry *gcu_binop_builtin (GrB_BinaryOp op)
{
    if (op == NULL) return NULL ;
    for (size_t k = 0 ; k < gcu_nbinops ; k++)
    {
        if (*gcu_binops [k].handle == op) return &gcu_binops [k] ;
    }
    return NULL ;
}

const gcu_monoid_entry *gcu_monoid_builtin (GrB_Monoid monoid)
{
    if (monoid == NULL) return NULL ;
    for (size_t k = 0 ; k < gcu_nmonoids ; k++)
    {
        if (*gcu_monoids [k].handle == monoid) return &gcu_monoids [k] ;
    }
    return NULL ;
}
