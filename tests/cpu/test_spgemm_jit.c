// GRBCUDA_TEST_INTERNAL
// test_spgemm_jit.c — the numeric SpGEMM kernels (cuda/spgemm/) compile
// through the JIT (NVRTC, no GPU needed) for semirings that exercise every
// accumulation path: 1-, 2-, 4-, 8- and 16-byte values, ANY, positional
// multipliers, mixed operand types, 32- and 64-bit indices.
#include "gcu_test.h"
#include "spgemm/gcu_spgemm.h"
#include "gcu_util.h"
#include <stdlib.h>

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!gcu_jit_available ())
    {
        printf ("SKIP: NVRTC is not available here\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    struct { GrB_Semiring s ; GrB_Type a, b ; } cases [] =
    {
        { GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, GrB_FP64 },
        { GxB_PLUS_TIMES_FC64, GxB_FC64, GxB_FC64 },
        { GxB_PLUS_TIMES_FC32, GxB_FC32, GxB_FC32 },
        { GxB_TIMES_PLUS_UINT8, GrB_UINT8, GrB_UINT8 },
        { GrB_PLUS_TIMES_SEMIRING_INT16, GrB_INT16, GrB_INT16 },
        { GxB_ANY_PAIR_BOOL, GrB_BOOL, GrB_BOOL },
        { GxB_ANY_SECONDI_INT64, GrB_INT64, GrB_INT64 },
        { GrB_MIN_PLUS_SEMIRING_INT32, GrB_FP64, GrB_INT8 },      // typecast inputs
        { GrB_LOR_LAND_SEMIRING_BOOL, GrB_BOOL, GrB_BOOL },
        { GxB_MAX_FIRSTJ_INT32, GrB_INT32, GrB_INT32 },
    } ;
    int ncases = (int) (sizeof (cases) / sizeof (cases [0])) ;
    double t0 = gcu_now () ;
    for (int c = 0 ; c < ncases ; c++)
    {
        for (int w = 0 ; w < 2 ; w++)
        {
            gcu_semiring_desc sr ;
            gcu_jit_operands ops = { 0 } ;
            OK (gcu_semiring_identify (cases [c].s, &sr)) ;
            OK (gcu_type_identify (cases [c].a, &ops.a)) ;
            OK (gcu_type_identify (cases [c].b, &ops.b)) ;
            ops.c = sr.mult.z ;
            ops.mask_type = -1 ;
            ops.a_idx64 = ops.b_idx64 = (w == 1) ;
            char *program = NULL ;
            char es [GCU_JIT_ENTRY_MAX], eg [GCU_JIT_ENTRY_MAX] ;
            OK (gcu_spgemm_numeric_program (&sr, &ops, &program, es, eg)) ;
            const gcu_jit_binary *bin = NULL ;
            GrB_Info info = gcu_jit_compile (program, "spgemm test", &bin) ;
            CHECK (info == GrB_SUCCESS && bin != NULL, "case %d (idx64 %d) did not compile", c, w) ;
            free (program) ;
        }
    }
    printf ("compiled %d SpGEMM specialisations in %.1f s\n", 2 * ncases, gcu_now () - t0) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_spgemm_jit") ;
}
