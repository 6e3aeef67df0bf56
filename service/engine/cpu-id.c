/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cpu-id.h"
#include "fileio.h"
#include "kernel-state.h"
#include "macro.h"
#include "parse-util.h"
#include "arch.h"

#if RNG_ARCH_X86_64
#include <cpuid.h>
#endif

void cpu_id_decode_leaf1(uint32_t eax, unsigned *ret_family, unsigned *ret_model, unsigned *ret_stepping) {
        unsigned base_family = (eax >> 8) & 0xf, base_model = (eax >> 4) & 0xf;
        unsigned family = base_family, model = base_model;

        if (base_family == 0xf)
                family += (eax >> 20) & 0xff;
        if (base_family == 0x6 || base_family == 0xf)
                model += ((eax >> 16) & 0xf) << 4;
        *ret_family = family;
        *ret_model = model;
        *ret_stepping = eax & 0xf;
}

/* A decimal or 0x-hex number filling [p, end) exactly, at most 32 bits. */
static int parse_u32(const char *p, const char *end, bool hex, uint32_t *ret) {
        uint64_t v = 0;
        unsigned base = 10;

        if (hex || (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))) {
                base = 16;
                if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
                        p += 2;
        }
        if (p >= end)
                return -EINVAL;
        for (; p < end; p++) {
                unsigned d;

                if (*p >= '0' && *p <= '9')
                        d = *p - '0';
                else if (base == 16 && *p >= 'a' && *p <= 'f')
                        d = *p - 'a' + 10;
                else if (base == 16 && *p >= 'A' && *p <= 'F')
                        d = *p - 'A' + 10;
                else
                        return -EINVAL;
                v = v * base + d;
                if (v > UINT32_MAX)
                        return -ERANGE;
        }
        *ret = (uint32_t) v;
        return 0;
}

int cpu_id_parse_cpuinfo(const char *text, size_t len, CpuId *ret) {
        const char *p = text, *end;
        bool seen_vendor = false, seen_family = false, seen_model = false, seen_stepping = false,
             seen_microcode = false, seen_name = false, any = false;
        uint32_t family = 0, model = 0, stepping = 0, imp = 0, part = 0, variant = 0, revision = 0;
        bool seen_imp = false, seen_part = false, seen_variant = false, seen_revision = false;
        CpuId id = {};

        if (!text || !ret)
                return -EINVAL;
        end = text + len;

        while (p < end) {
                const char *eol = memchr(p, '\n', end - p), *key_end, *colon, *v, *v_end;
                size_t kl;

                if (!eol)
                        eol = end;
                colon = memchr(p, ':', eol - p);
                if (!colon) {
                        /* A blank line ends the first processor's block. */
                        if (any && eol == p)
                                break;
                        p = eol + 1;
                        continue;
                }
                for (key_end = colon; key_end > p && is_blank(key_end[-1]); key_end--)
                        ;
                kl = key_end - p;
                for (v = colon + 1; v < eol && is_blank(*v); v++)
                        ;
                for (v_end = eol; v_end > v && (is_blank(v_end[-1]) || v_end[-1] == '\r'); v_end--)
                        ;

#define KEY(s) (kl == strlen(s) && memcmp(p, s, kl) == 0)
                if (KEY("vendor_id") && !seen_vendor) {
                        seen_vendor = any = true;
                        if ((size_t) (v_end - v) < sizeof(id.vendor) && !memchr(v, '\0', v_end - v)) {
                                memcpy(id.vendor, v, v_end - v);
                                id.vendor[v_end - v] = '\0';
                        }
                } else if (KEY("cpu family") && !seen_family) {
                        seen_family = any = true;
                        if (parse_u32(v, v_end, false, &family) < 0)
                                seen_family = false, family = UINT32_MAX;
                } else if (KEY("model") && !seen_model) {
                        seen_model = any = true;
                        if (parse_u32(v, v_end, false, &model) < 0)
                                seen_model = false, model = UINT32_MAX;
                } else if (KEY("stepping") && !seen_stepping) {
                        seen_stepping = any = true;
                        if (parse_u32(v, v_end, false, &stepping) < 0)
                                seen_stepping = false, stepping = UINT32_MAX;
                } else if (KEY("model name") && !seen_name) {
                        size_t n = MIN((size_t) (v_end - v), sizeof(id.model_name) - 1);

                        seen_name = any = true;
                        for (size_t k = 0; k < n; k++)
                                id.model_name[k] = v[k] >= 0x20 && v[k] < 0x7f ? v[k] : '?';
                        id.model_name[n] = '\0';
                } else if (KEY("CPU implementer") && !seen_imp) {
                        seen_imp = any = true;
                        if (parse_u32(v, v_end, false, &imp) < 0 || imp > 0xff)
                                seen_imp = false, imp = UINT32_MAX;
                } else if (KEY("CPU part") && !seen_part) {
                        seen_part = any = true;
                        if (parse_u32(v, v_end, false, &part) < 0 || part > 0xfff)
                                seen_part = false, part = UINT32_MAX;
                } else if (KEY("CPU variant") && !seen_variant) {
                        seen_variant = any = true;
                        if (parse_u32(v, v_end, false, &variant) < 0 || variant > 0xf)
                                seen_variant = false, variant = UINT32_MAX;
                } else if (KEY("CPU revision") && !seen_revision) {
                        seen_revision = any = true;
                        if (parse_u32(v, v_end, false, &revision) < 0 || revision > 0xf)
                                seen_revision = false, revision = UINT32_MAX;
                } else if (KEY("microcode") && !seen_microcode) {
                        seen_microcode = any = true;
                        if (parse_u32(v, v_end, true, &id.microcode) >= 0)
                                id.have_microcode = true;
                }
#undef KEY
                p = eol + 1;
        }

        /* family/model/stepping only as a whole, each parsed. */
        if (seen_family && seen_model && seen_stepping && family != UINT32_MAX &&
            model != UINT32_MAX && stepping != UINT32_MAX) {
                id.have_fms = true;
                id.family = family;
                id.model = model;
                id.stepping = stepping;
        }
        /* arm64: MIDR_EL1's fields, only as a whole, each parsed. */
        if (!id.have_fms && seen_imp && seen_part && seen_variant && seen_revision)
                cpu_id_from_midr((uint64_t) imp << 24 | 0xfu << 16 | (uint64_t) variant << 20 | part << 4 | revision,
                                 &id);
        *ret = id;
        return any ? 0 : -EBADMSG;
}

void cpu_id_from_midr(uint64_t midr, CpuId *ret) {
        snprintf(ret->vendor, sizeof(ret->vendor), "0x%02x", (unsigned) (midr >> 24) & 0xff);
        ret->family = (midr >> 16) & 0xf;
        ret->model = (midr >> 4) & 0xfff;
        ret->stepping = ((midr >> 20) & 0xf) << 4 | (midr & 0xf);
        ret->have_fms = ret->midr = true;
}

int cpu_id_from_hardware(const char *root, CpuId *ret) {
        if (!ret)
                return -EINVAL;
#if RNG_ARCH_X86_64
        unsigned a, b, c, d;

        (void) root;
        if (!__get_cpuid(0, &a, &b, &c, &d))
                return -EOPNOTSUPP;
        memcpy(ret->vendor, &b, 4);
        memcpy(ret->vendor + 4, &d, 4);
        memcpy(ret->vendor + 8, &c, 4);
        ret->vendor[12] = '\0';
        if (a < 1 || !__get_cpuid(1, &a, &b, &c, &d)) {
                ret->have_fms = false;
                return 0;
        }
        cpu_id_decode_leaf1(a, &ret->family, &ret->model, &ret->stepping);
        ret->have_fms = true;
        return 0;
#elif RNG_SOURCES_ARM64
        /* The kernel's copy of cpu0's MIDR_EL1 (hex). */
        _cleanup_free_ char *p = path_join(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", NULL);
        _cleanup_free_ char *m = NULL;
        size_t ml = 0;
        uint32_t midr;
        const char *e;
        int r;

        if (!p)
                return -ENOMEM;
        r = read_small_file(p, 64, &m, &ml);
        if (r < 0)
                return r;
        e = m + ml;
        while (e > m && (e[-1] == '\n' || is_blank(e[-1])))
                e--;
        r = parse_u32(m, e, true, &midr);
        if (r < 0)
                return r;
        cpu_id_from_midr(midr, ret);
        return 0;
#else
        (void) root;
        return -EOPNOTSUPP;
#endif
}

void cpu_attribution_from_id(const CpuId *id, CpuAttribution *ret) {
        *ret = (CpuAttribution) {};
        if (!id)
                return;
        snprintf(ret->vendor, sizeof(ret->vendor), "%s", id->vendor);
        if (id->have_fms) {
                snprintf(ret->family, sizeof(ret->family), "0x%x", id->family);
                snprintf(ret->model, sizeof(ret->model), "0x%x", id->model);
                if (id->midr)
                        snprintf(ret->stepping, sizeof(ret->stepping), "r%up%u", (id->stepping >> 4) & 0xf,
                                 id->stepping & 0xf);
                else
                        snprintf(ret->stepping, sizeof(ret->stepping), "0x%x", id->stepping);
        }
        if (id->have_microcode)
                snprintf(ret->microcode, sizeof(ret->microcode), "0x%" PRIx32, id->microcode);
        snprintf(ret->model_name, sizeof(ret->model_name), "%s", id->model_name);
}

int cpu_id_read(const char *root, CpuId *ret) {
        _cleanup_free_ char *buf = NULL;
        size_t len = 0;
        CpuId id = {}, c = {};
        int r, rc;

        if (!ret)
                return -EINVAL;
        r = kernel_cpuinfo_read(root, &buf, &len);
        if (r >= 0)
                r = cpu_id_parse_cpuinfo(buf, len, &id);

        rc = cpu_id_from_hardware(root, &c);
        if (rc >= 0) {
                memcpy(id.vendor, c.vendor, sizeof(id.vendor));
                if (c.have_fms) {
                        id.have_fms = true;
                        id.midr = c.midr;
                        id.family = c.family;
                        id.model = c.model;
                        id.stepping = c.stepping;
                }
        } else if (r < 0)
                return r;
        *ret = id;
        return 0;
}
