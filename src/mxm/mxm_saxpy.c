// mxm_saxpy.c — the GrB_mxm GPU family for sparse A*B (DESIGN §4 SpGEMM):
// the operands op(A), op(B) come from the residency cache, or leave
// SuiteSparse as CSR copies (src/export: the objects are never changed) and
// go to the device through the pinned staging buffers (and into the cache),
// the SpGEMM engine computes T = A*B over the semiring (src/spgemm), T comes
// back through the staging buffers, and is written into C
// with exactly GraphBLAS's C<M,replace> = accum (C, T): directly (pack) when
// there is no mask, no accumulator and C already has T's type and layout,
// otherwise by SuiteSparse's own apply of the identity, which carries the
// mask, replace, accum and typecasting rules unchanged. Any failure before
// the write-back leaves C untouched and the dispatch runs the host.
#include "gcu_mxm.h"
#include "../device/gcu_device.h"
#include "../device/gcu_staging.h"
#include "../spgemm/gcu_spgemm.h"
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

//------------------------------------------------------------------------------
// the family
//------------------------------------------------------------------------------

static GrB_Info saxpy_branch (const gcu_call *call)
{
    gcu_semiring_desc sr ;
    gcu_type_desc ta, tb ;
    GrB_Type t ;
    if (gcu_semiring_identify (call->semiring, &sr) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (!gcu_semiring_device_exact (&sr)) return GCU_NOT_HANDLED ;     // pow, atan2, hypot
    if (GxB_Matrix_type (&t, (GrB_Matrix) call->A) != GrB_SUCCESS
        || gcu_type_identify (t, &ta) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (GxB_Matrix_type (&t, (GrB_Matrix) call->B) != GrB_SUCCESS
        || gcu_type_identify (t, &tb) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    // C's column indices are int32 on the device
    if (call->c_cols >= ((GrB_Index) 1 << 31) || call->c_rows >= ((GrB_Index) 1 << 31) - 1)
        return GCU_NOT_HANDLED ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    (void) gcu_sync (s) ;   /* no kernel reads an operand any more */   \
    gcu_spgemm_out_free (&T) ;                                          \
    gcu_mxm_result_end (&res) ;                                         \
    gcu_mxm_scratch_free (&tk) ;                                        \
    gcu_operand_release (&ob, s) ; gcu_operand_release (&oa, s) ;

static GrB_Info saxpy_run (gcu_call *call)
{
    gcu_stream s = gcu_stream_default () ;
    gcu_operand oa, ob ;
    gcu_spgemm_out T = { 0 } ;
    gcu_mxm_result res ;
    gcu_mxm_scratch tk ;
    gcu_mxm_scratch_init (&tk, s) ;
    gcu_semiring_desc sr ;
    gcu_jit_operands ops ;
    GrB_Type at, bt ;
    memset (&oa, 0, sizeof (oa)) ;
    memset (&ob, 0, sizeof (ob)) ;
    memset (&ops, 0, sizeof (ops)) ;
    memset (&res, 0, sizeof (res)) ;
    double t0 = gcu_now () ;
    GCU_TRY (gcu_semiring_identify (call->semiring, &sr)) ;
    if (!gcu_iso_call_check (call, &sr)) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (GxB_Matrix_type (&at, (GrB_Matrix) call->A)) ;
    GCU_TRY (GxB_Matrix_type (&bt, (GrB_Matrix) call->B)) ;
    GCU_TRY (gcu_type_identify (at, &ops.a)) ;
    GCU_TRY (gcu_type_identify (bt, &ops.b)) ;
    ops.c = sr.mult.z ;
    ops.mask_type = -1 ;
    const GrB_Index m = call->c_rows, n = call->c_cols ;
    const GrB_Index k = call->tran_a ? call->a_rows : call->a_cols ;

    // op(A), op(B) on the device: the residency cache's copies when the
    // objects are unchanged since an earlier call, else exported and
    // uploaded (and kept for the next call). A given transposed is used by
    // column: its CSC is the CSR of A'. C = A*A takes one copy, used twice.
    GCU_TRY (gcu_operand_get ((GrB_Matrix) call->A, call->tran_a, ops.a.size, false, &oa, s)) ;
    if (call->B == call->A && call->tran_b == call->tran_a) gcu_operand_share (&oa, &ob) ;
    else GCU_TRY (gcu_operand_get ((GrB_Matrix) call->B, call->tran_b, ops.b.size, false, &ob, s)) ;
    ops.a_iso = oa.iso ;
    ops.b_iso = ob.iso ;
    ops.a_idx64 = oa.idx64 ;
    ops.b_idx64 = ob.idx64 ;
    gcu_spgemm_in in = { (int64_t) m, (int64_t) k, (int64_t) n,
        (int64_t) oa.nvals, (int64_t) ob.nvals, oa.idx64, ob.idx64,
        oa.p, oa.j, oa.x, ob.p, ob.j, ob.x } ;

    // T = A*B, computed on the device and brought to host arrays SuiteSparse
    // will own, row block by row block (the download of one block overlaps
    // the numeric phase of the next): row pointers as they are (int64_t),
    // column indices widened int32_t -> uint64_t on the host (4 bytes each
    // cross PCIe), values as bytes. The pool's high-water mark, from the
    // bytes in use now, measures the product's temporaries and buffers.
    // C = T may stay on the device as C's newest value (DESIGN §3): the
    // engine writes T into the buffers of C's residency entry when it fits
    // one row block, else T comes to the host as above. Under a mask with
    // no accum into a C of T's type, T stays on the device in scratch
    // buffers and the write-back runs there too (mxm_merge.c)
    double t1 = gcu_now () ;
    const bool merge = gcu_mxm_merge_applies (call, sr.mult.z.handle) ;
    if (merge) T.keep = &tk.keep ;
    else if (gcu_mxm_result_begin (call, sr.mult.z.handle, false, &res)) T.keep = &res.keep ;
    const int64_t pool0 = gcu_device_bytes_in_use () ;
    (void) gcu_device_bytes_peak (true) ;
    GCU_TRY (gcu_spgemm_run (&sr, &ops, &in, &T, s)) ;
    const int64_t pool_peak = gcu_device_bytes_peak (false) ;
    double t2 = gcu_now () ;
    GrB_Index nvals = (GrB_Index) T.nvals ;
    const GrB_Index tnvals = nvals ;
    const size_t zsize = sr.mult.z.size ;
    const size_t out_bytes = (m + 1) * 8 + nvals * (4 + zsize) ;
    const size_t down_bytes = T.on_device ? 0 : out_bytes ;
    // device memory: the operands' copies, T's output (as if whole), and
    // the peak of the product (operands + everything it allocated at once)
    const double in_mb = (gcu_operand_device_bytes (&oa)
        + (ob.how == GCU_OPERAND_SHARED ? 0 : gcu_operand_device_bytes (&ob))) / 1e6 ;
    const double out_mb = out_bytes / 1e6 ;
    const double peak_mb = in_mb + (pool_peak >= 0 && pool0 >= 0 ? (pool_peak - pool0) / 1e6 : 0) ;
    char da [64], db [64] ;
    gcu_operand_describe (&oa, "A", NULL, da, sizeof (da)) ;
    gcu_operand_describe (&ob, "B", "A", db, sizeof (db)) ;
    const size_t up_bytes = oa.up_bytes + ob.up_bytes ;
    const double t_export = oa.export_s + ob.export_s, t_upload = oa.upload_s + ob.upload_s ;
    gcu_operand_release (&ob, s) ;
    gcu_operand_release (&oa, s) ;
    double t3 = gcu_now () ;

    // C<M,replace> = accum (C, T): T on the device becomes C's newest value
    // (C's old copies go; a C aliased with A or B was read already); else on
    // success T's arrays belong to SuiteSparse (a C aliased with A or B is
    // invalidated by the write-back's own calls)
    if (T.on_device && merge)
    {
        GCU_TRY (gcu_mxm_merge_into_c (call, sr.mult.z.handle, zsize, m, n, T.dTp, T.dTj,
            T.dTx, false, &nvals, s)) ;
    }
    else if (T.on_device)
    {
        GCU_TRY (gcu_mxm_result_publish (call, &res, sr.mult.z.handle, zsize, m, n, nvals, false)) ;
    }
    else
    {
        gcu_mxm_result_end (&res) ;
        GCU_TRY (gcu_mxm_write_back (call, sr.mult.z.handle, m, n, &T.Tp, &T.Tj, &T.Tx, nvals, zsize, false)) ;
    }
    call->kernel_seconds = T.kernel_seconds ;
    call->up_bytes += up_bytes ;
    call->down_bytes = down_bytes ;
    gcu_log ("GrB_mxm gpu saxpy: %.3g products, nnz(T) %llu, nnz(C) %llu; %s, %s; operands "
        "%.2f ms (export %.2f ms, upload %.2f ms, %.1f MB), spgemm + download %.2f ms "
        "(kernels %.2f ms, download %.2f ms, %.1f MB in %d block%s), %s %.2f ms; "
        "device memory: operands %.1f MB + output %.1f MB, peak %.1f MB (%+.0f%%)",
        T.products, (unsigned long long) tnvals, (unsigned long long) nvals, da, db, 1e3 * (t1 - t0),
        1e3 * t_export, 1e3 * t_upload, up_bytes / 1e6, 1e3 * (t2 - t1),
        1e3 * T.kernel_seconds, 1e3 * T.download_seconds, down_bytes / 1e6, T.nblocks,
        T.nblocks == 1 ? "" : "s", !T.on_device ? "write-back" : merge
        ? "write-back on the device under the mask, C's newest value"
        : "result kept on the device as C's newest value", 1e3 * (gcu_now () - t3),
        in_mb, out_mb, peak_mb, in_mb + out_mb > 0 ? 100 * (peak_mb / (in_mb + out_mb) - 1) : 0) ;
    gcu_spgemm_out_free (&T) ;      // what the write-back did not take
    // the scratch buffers the engine was given but did not keep T in (it
    // can take some, then plan again in row blocks: a failed allocation)
    gcu_mxm_scratch_free (&tk) ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_mxm_saxpy = { "spgemm saxpy", GCU_OP_MXM, saxpy_branch, saxpy_run } ;

#endif
