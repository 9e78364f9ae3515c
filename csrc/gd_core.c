#include "gd_core.h"

int gd_pack_cards(const uint8_t *counts, gd_cards *out) {
    uint64_t w[2] = {0, 0};
    for (int f = 0; f < GD_FACES; f++) {
        if (counts[f] > 2) return f;
        w[f >> 5] |= (uint64_t)counts[f] << (2 * (f & 31));
    }
    out->w[0] = w[0];
    out->w[1] = w[1];
    return -1;
}

void gd_unpack_cards(const gd_cards *cards, uint8_t *counts) {
    for (int f = 0; f < GD_FACES; f++) counts[f] = (uint8_t)gd_face_count(cards, f);
}
