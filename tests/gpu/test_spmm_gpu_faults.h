// test_spmm_gpu_faults.h — test_spmm_gpu's fault injection: every counted
// device operation of one SpMM call (whole rows as by default, then sorted
// with long rows through segments) and one SDDMM call fails in turn; each
// time the answer is still SuiteSparse's (the host fallback) and no device
// memory is left behind. Included once, by test_spmm_gpu.c.

static void fault_loop_one (uint64_t *st, bool sddmm)
{
    GrB_Matrix A = sddmm ? full (GrB_FP64, 200, 32, false, false, st)
                         : gcu_test_random_matrix (GrB_FP64, 200, 150, 0.05, st) ;
    GrB_Matrix X = full (GrB_FP64, sddmm ? 120 : 150, 32, false, false, st) ;
    GrB_Matrix M = sddmm ? gcu_test_random_matrix (GrB_BOOL, 200, 120, 0.2, st) : NULL ;
    GrB_Descriptor d = NULL ;
    OK (GrB_Descriptor_new (&d)) ;
    if (sddmm) OK (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
    const GrB_Index n = sddmm ? 120 : 32 ;
    GrB_Matrix Cref = NULL, C = NULL ;
    OK (GrB_Matrix_new (&Cref, GrB_FP64, 200, n)) ;
    OK (real_mxm (Cref, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, X, d)) ;
    gcu_residency_clear_all () ;
    gcu_fault_inject (1 << 30) ;
    OK (GrB_Matrix_new (&C, GrB_FP64, 200, n)) ;
    OK (GrB_mxm (C, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, X, d)) ;
    const int64_t nops = gcu_fault_count () ;
    GrB_Matrix_free (&C) ;
    gcu_sync (gcu_stream_default ()) ;
    const int64_t base = gcu_device_bytes_in_use () ;
    printf ("fault injection (%s): %lld counted device operations per call\n",
        sddmm ? "sddmm" : "spmm", (long long) nops) ;
    CHECK (nops > 5, "too few counted operations (%lld)", (long long) nops) ;
    for (int64_t f = 1 ; f <= nops ; f++)
    {
        gcu_residency_clear_all () ;
        gcu_fault_inject (f) ;
        OK (GrB_Matrix_new (&C, GrB_FP64, 200, n)) ;
        GrB_Info info = GrB_mxm (C, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, X, d) ;
        CHECK (info == GrB_SUCCESS, "fault %lld: info %d", (long long) f, (int) info) ;
        char what [96] ;
        snprintf (what, sizeof (what), "%s: fault at operation %lld", sddmm ? "sddmm" : "spmm", (long long) f) ;
        CHECK (gcu_test_matrix_equal (C, Cref, 1e-12, false, what), "%s: wrong answer", what) ;
        GrB_Matrix_free (&C) ;
        gcu_sync (gcu_stream_default ()) ;
        const int64_t now = gcu_device_bytes_in_use () ;
        CHECK (now == base, "%s: device memory %lld bytes, was %lld", what, (long long) now, (long long) base) ;
    }
    gcu_fault_inject (0) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&X) ; GrB_Matrix_free (&M) ;
    GrB_Matrix_free (&Cref) ; GrB_Descriptor_free (&d) ;
}

static void fault_loop (uint64_t *st)
{
    fault_loop_one (st, false) ;
    // whole rows sorted by length (the plan's sort), the rows over 3
    // entries through segments of 5 and the fold
    spmm_path (2) ;
    setenv ("GRBCUDA_SPMM_RMAX", "3", 1) ;
    setenv ("GRBCUDA_SPMM_SEG", "5", 1) ;
    fault_loop_one (st, false) ;
    spmm_path (-1) ;
    fault_loop_one (st, true) ;
}
