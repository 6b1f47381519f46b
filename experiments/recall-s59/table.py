"""The static embedding table (capabilities/data/semantic) read in numpy: a word's vector is the
mean of its WordPiece rows, as `semantic::embed` gives for one lowercase ASCII word (the greedy
longest-match split; enough for the words this study compares, not the engine's tokenizer)."""
import pathlib
import struct

import numpy as np

DATA = pathlib.Path(__file__).resolve().parents[2] / "capabilities" / "data" / "semantic"
_bytes = (DATA / "minilm-static-256.i8").read_bytes()
ROWS, DIMS = struct.unpack("<II", _bytes[8:16])
_scales = np.frombuffer(_bytes[16:16 + 4 * ROWS], dtype="<f4")
_rows = np.frombuffer(_bytes[16 + 4 * ROWS:16 + 4 * ROWS + ROWS * DIMS], dtype=np.int8)
TABLE = _rows.reshape(ROWS, DIMS).astype(np.float32) * _scales[:, None]
VOCAB = {t: i for i, t in enumerate((DATA / "vocab.txt").read_text().split("\n")[:ROWS])}
UNK = 100


def pieces(word):
    word, out, start = word.lower(), [], 0
    while start < len(word):
        end = len(word)
        while start < end:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in VOCAB:
                out.append(VOCAB[piece])
                break
            end -= 1
        else:
            return [UNK]
        start = end
    return out


def vector(word):
    """The unit vector of one word, or None when it is all unknown pieces."""
    ids = [i for i in pieces(word) if i != UNK]
    if not ids:
        return None
    v = TABLE[ids].mean(0)
    return v / (np.linalg.norm(v) + 1e-9)
