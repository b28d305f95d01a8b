package io.slurmwise.cli.chat;

import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line the way a shell splits words, without running a shell: spaces separate words, single
 * quotes keep everything literal, double quotes keep spaces, a backslash escapes the next character. No
 * variables, globs or pipes: {@code ssh login1 'slurmwise mcp'} gives three words.
 */
final class CommandWords {

    private CommandWords() {
    }

    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\\' && i + 1 < line.length() && quote != '\'') {
                w.append(line.charAt(++i));
                inWord = true;
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new UserError(ExitCodes.USAGE, "unbalanced " + quote + " in --mcp-server " + line);
        }
        if (inWord) {
            words.add(w.toString());
        }
        if (words.isEmpty()) {
            throw new UserError(ExitCodes.USAGE, "--mcp-server needs a command, e.g. \"ssh login1 slurmwise mcp\"");
        }
        return words;
    }
}
