package io.slurmwise.kb.spi;


import java.util.Locale;
import java.util.Objects;

/**
 * The token a secured Chroma wants on every request: Chroma's own token auth and the proxies sites put in front
 * of Chroma 1.x (which has no auth of its own) read it from {@code X-Chroma-Token: <token>} or
 * {@code Authorization: Bearer <token>}. The token never appears in messages or {@link #toString()}.
 *
 * <pre>{@code
 * ChromaAuth a = ChromaAuth.of(System.getenv("SLURMWISE_CHROMA_TOKEN"), null);  // X-Chroma-Token
 * ChromaAuth b = ChromaAuth.of(token, "Authorization");                          // Authorization: Bearer ...
 * }</pre>
 */
public final class ChromaAuth {

    public static final String X_CHROMA_TOKEN = "X-Chroma-Token";
    public static final String AUTHORIZATION = "Authorization";

    private final String header;
    private final String token;

    private ChromaAuth(String header, String token) {
        this.header = header;
        this.token = token;
    }

    /**
     * @param token  the token (SLURMWISE_CHROMA_TOKEN); null or blank means no auth, and then null is returned
     * @param header {@code X-Chroma-Token} (the default when null or blank) or {@code Authorization}
     *               (SLURMWISE_CHROMA_TOKEN_HEADER), case-insensitive
     * @throws KbException for any other header, or a token with a line break or control character
     */
    public static ChromaAuth of(String token, String header) {
        if (token == null || token.isBlank()) {
            return null;
        }
        String t = token.strip();
        if (t.chars().anyMatch(Character::isISOControl)) {
            throw new KbException("SLURMWISE_CHROMA_TOKEN holds a line break or control character; set it to the"
                    + " token alone (no 'Bearer ' prefix, no newline)");
        }
        String h = header == null || header.isBlank() ? X_CHROMA_TOKEN : header.strip();
        if (h.equalsIgnoreCase(X_CHROMA_TOKEN)) {
            return new ChromaAuth(X_CHROMA_TOKEN, t);
        }
        if (h.equalsIgnoreCase(AUTHORIZATION)) {
            return new ChromaAuth(AUTHORIZATION, t.regionMatches(true, 0, "Bearer ", 0, 7) ? t.substring(7).strip() : t);
        }
        throw new KbException("SLURMWISE_CHROMA_TOKEN_HEADER='" + header + "' is not a header Chroma reads a token"
                + " from; use " + X_CHROMA_TOKEN + " (the default) or " + AUTHORIZATION);
    }

    /** The header's name. */
    public String header() {
        return header;
    }

    /** The header's value: the token, or {@code Bearer <token>}. For the store's requests only: never print it. */
    public String value() {
        return header.equals(AUTHORIZATION) ? "Bearer " + token : token;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChromaAuth a && a.header.equals(header) && a.token.equals(token);
    }

    @Override
    public int hashCode() {
        return Objects.hash(header, token);
    }

    @Override
    public String toString() {
        return "token in " + header.toLowerCase(Locale.ROOT);
    }
}
