package io.slurmwise.cli.chat;

import io.slurmwise.cli.context.UserError;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandWordsTest {

    @Test
    void splitsLikeAShellWithoutRunningOne() {
        assertThat(CommandWords.split("ssh login1 slurmwise mcp")).containsExactly("ssh", "login1", "slurmwise", "mcp");
        assertThat(CommandWords.split("  ssh  -o 'ProxyJump gw' \"login 1\" a\\ b '' ")).containsExactly(
                "ssh", "-o", "ProxyJump gw", "login 1", "a b", "");
        assertThat(CommandWords.split("echo '$HOME; rm -rf /' `x` |y")).containsExactly(
                "echo", "$HOME; rm -rf /", "`x`", "|y");
    }

    @Test
    void emptyOrUnbalancedIsAUsageError() {
        assertThatThrownBy(() -> CommandWords.split("   ")).isInstanceOf(UserError.class).hasMessageContaining("needs a command");
        assertThatThrownBy(() -> CommandWords.split("ssh \"x")).hasMessageContaining("unbalanced \"");
    }
}
