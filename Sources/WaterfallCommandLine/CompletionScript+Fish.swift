extension CompletionScript {
    /// The fish script: one `complete` line per command and option, each guarded by a function that finds the
    /// command and the argument's position on the line as the bash script does.
    static var fish: String {
        var lines: [String] = []
        for option in CommandOption.global {
            lines.append("complete -c waterfallctl \(flags(option)) -d \(quoted(option.help))")
        }
        for command in Command.allCases {
            lines.append(
                "complete -c waterfallctl -n '__waterfallctl_at \"\" 0' -a \(command.rawValue) "
                    + "-d \(quoted(command.summary))")
            for option in command.options {
                lines.append(
                    "complete -c waterfallctl -n '__waterfallctl_in \(command.rawValue)' \(flags(option)) "
                        + "-d \(quoted(option.help))")
            }
            for (position, argument) in command.arguments.enumerated() {
                let condition = "-n '__waterfallctl_at \(command.rawValue) \(position)'"
                if argument.kind == .layout {
                    lines.append("complete -c waterfallctl \(condition) -a '(__waterfallctl_layouts)'")
                } else if let words = words(for: argument.kind) {
                    lines.append("complete -c waterfallctl \(condition) -a \(quoted(words.joined(separator: " ")))")
                }
            }
        }
        return """
            # fish completion for waterfallctl, written by `waterfallctl completion fish`.
            # Install: waterfallctl completion fish > ~/.config/fish/completions/waterfallctl.fish

            # Prints the command on the line (or nothing) and how many arguments follow it, skipping options and
            # their values.
            function __waterfallctl_state
                set -l tokens (commandline -opc)
                set -e tokens[1]
                set -l command ''
                set -l position 0
                set -l skip 0
                for token in $tokens
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    switch $token
                        case \(valueOptions.joined(separator: " "))
                            set skip 1
                        case '-*'
                        case '*'
                            if test -z "$command"
                                set command $token
                            else
                                set position (math $position + 1)
                            end
                    end
                end
                echo $command
                echo $position
            end

            # Whether the word being completed is argument $argv[2] (from 0) of command $argv[1] ("" for none yet).
            function __waterfallctl_at
                set -l state (__waterfallctl_state)
                test "$state[1]" = "$argv[1]"; and test "$state[2]" = "$argv[2]"
            end

            # Whether the command on the line is $argv[1].
            function __waterfallctl_in
                set -l state (__waterfallctl_state)
                test "$state[1]" = "$argv[1]"
            end

            # The daemon's layouts, from the socket given on the line if any; nothing when no daemon answers.
            function __waterfallctl_layouts
                set -l tokens (commandline -opc)
                set -l socket
                for i in (seq (count $tokens))
                    if test "$tokens[$i]" = --socket; and test $i -lt (count $tokens)
                        set socket --socket $tokens[(math $i + 1)]
                    else if string match -q -- '--socket=*' $tokens[$i]
                        set socket $tokens[$i]
                    end
                end
                waterfallctl $socket --timeout 2 list --names 2>/dev/null
            end

            complete -c waterfallctl -f
            \(lines.joined(separator: "\n"))

            """
    }

    /// `-l rect -x`: the option's long name, whether it takes a value, and whether that value is a file.
    private static func flags(_ option: CommandOption) -> String {
        let name = "-l \(option.name.dropFirst(2))"
        guard option.value != nil else { return name }
        return option.completion == .file ? "\(name) -r -F" : "\(name) -x"
    }
}
