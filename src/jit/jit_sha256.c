// jit_sha256.c — SHA-256 as specified in FIPS 180-4 (see gcu_sha256.h).
#include "gcu_sha256.h"

#include <string.h>

static const uint32_t gcu_sha256_k [64] =
{
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
} ;

static inline uint32_t gcu_rotr (uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n)) ;
}

static void gcu_sha256_block (gcu_sha256 *c, const uint8_t *p)
{
    uint32_t w [64] ;
    for (int t = 0 ; t < 16 ; t++)
    {
        w [t] = ((uint32_t) p [4*t] << 24) | ((uint32_t) p [4*t+1] << 16) |
                ((uint32_t) p [4*t+2] << 8) | (uint32_t) p [4*t+3] ;
    }
    for (int t = 16 ; t < 64 ; t++)
    {
        uint32_t s0 = gcu_rotr (w [t-15], 7) ^ gcu_rotr (w [t-15], 18) ^ (w [t-15] >> 3) ;
        uint32_t s1 = gcu_rotr (w [t-2], 17) ^ gcu_rotr (w [t-2], 19) ^ (w [t-2] >> 10) ;
        w [t] = w [t-16] + s0 + w [t-7] + s1 ;
    }
    uint32_t a = c->h [0], b = c->h [1], cc = c->h [2], d = c->h [3] ;
    uint32_t e = c->h [4], f = c->h [5], g = c->h [6], h = c->h [7] ;
    for (int t = 0 ; t < 64 ; t++)
    {
        uint32_t S1 = gcu_rotr (e, 6) ^ gcu_rotr (e, 11) ^ gcu_rotr (e, 25) ;
        uint32_t ch = (e & f) ^ (~e & g) ;
        uint32_t t1 = h + S1 + ch + gcu_sha256_k [t] + w [t] ;
        uint32_t S0 = gcu_rotr (a, 2) ^ gcu_rotr (a, 13) ^ gcu_rotr (a, 22) ;
        uint32_t maj = (a & b) ^ (a & cc) ^ (b & cc) ;
        uint32_t t2 = S0 + maj ;
        h = g ; g = f ; f = e ; e = d + t1 ;
        d = cc ; cc = b ; b = a ; a = t1 + t2 ;
    }
    c->h [0] += a ; c->h [1] += b ; c->h [2] += cc ; c->h [3] += d ;
    c->h [4] += e ; c->h [5] += f ; c->h [6] += g ; c->h [7] += h ;
}

void gcu_sha256_init (gcu_sha256 *c)
{
    static const uint32_t h0 [8] =
    {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    } ;
    memcpy (c->h, h0, sizeof (h0)) ;
    c->bytes = 0 ;
    c->fill = 0 ;
}

void gcu_sha256_update (gcu_sha256 *c, const void *data, size_t n)
{
    const uint8_t *p = data ;
    c->bytes += n ;
    while (n > 0)
    {
        if (c->fill == 0 && n >= 64)
        {
            gcu_sha256_block (c, p) ;
            p += 64 ; n -= 64 ;
            continue ;
        }
        size_t take = 64 - c->fill ;
        if (take > n) take = n ;
        memcpy (c->block + c->fill, p, take) ;
        c->fill += take ; p += take ; n -= take ;
        if (c->fill == 64)
        {
            gcu_sha256_block (c, c->block) ;
            c->fill = 0 ;
        }
    }
}

void gcu_sha256_final (gcu_sha256 *c, uint8_t digest [32])
{
    uint64_t bits = c->bytes * 8 ;
    uint8_t pad = 0x80 ;
    gcu_sha256_update (c, &pad, 1) ;
    uint8_t zero = 0 ;
    while (c->fill != 56) gcu_sha256_update (c, &zero, 1) ;
    uint8_t len [8] ;
    for (int k = 0 ; k < 8 ; k++) len [k] = (uint8_t) (bits >> (56 - 8 * k)) ;
    gcu_sha256_update (c, len, 8) ;
    for (int k = 0 ; k < 8 ; k++)
    {
        digest [4*k]   = (uint8_t) (c->h [k] >> 24) ;
        digest [4*k+1] = (uint8_t) (c->h [k] >> 16) ;
        digest [4*k+2] = (uint8_t) (c->h [k] >> 8) ;
        digest [4*k+3] = (uint8_t) (c->h [k]) ;
    }
}

void gcu_sha256_hex (const uint8_t digest [32], char hex [65])
{
    static const char digits [] = "0123456789abcdef" ;
    for (int k = 0 ; k < 32 ; k++)
    {
        hex [2*k]   = digits [digest [k] >> 4] ;
        hex [2*k+1] = digits [digest [k] & 15] ;
    }
    hex [64] = '\0' ;
}
