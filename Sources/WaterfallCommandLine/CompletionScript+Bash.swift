extension CompletionScript {
    /// The bash script: a `complete -F` function that finds the command and the argument's position, skipping
    /// options and their values, then offers options, the argument's words, files or layouts.
    static var bash: String {
        let commands = Command.allCases.map(\.rawValue).joined(separator: " ")
        let global = CommandOption.global.map(\.name).joined(separator: " ")
        let perCommand = Command.allCases.map { command in
            let options = command.options.map(\.name).joined(separator: " ")
            return "        \(command.rawValue)) options=\"\(options)\"; kinds=(\(kinds(command))) ;;"
        }.joined(separator: "\n")
        let kindWords = [Command.Argument.Kind.method, .command, .shell].map { kind in
            "        \(kind)) COMPREPLY=($(compgen -W \"\((words(for: kind) ?? []).joined(separator: " "))\" -- \"$cur\")) ;;"
        }.joined(separator: "\n")
        return """
            # bash completion for waterfallctl, written by `waterfallctl completion bash`.
            # Install: waterfallctl completion bash > ~/.local/share/bash-completion/completions/waterfallctl

            # The daemon's layouts, from the socket given on the line if any; nothing when no daemon answers.
            _waterfallctl_layouts() {
                local socket="" i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    if [[ ${COMP_WORDS[i]} == --socket ]]; then
                        socket=${COMP_WORDS[i + 1]}
                        # --socket=PATH arrives as three words.
                        [[ $socket == = ]] && socket=${COMP_WORDS[i + 2]}
                    fi
                done
                waterfallctl ${socket:+--socket "$socket"} --timeout 2 list --names 2>/dev/null
            }

            _waterfallctl() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
                COMPREPLY=()
            \(commandScan(words: "COMP_WORDS", from: 1, to: "COMP_CWORD", files: #"COMPREPLY=($(compgen -f -- "$cur"))"#))
                if [[ -z $command ]]; then
                    if [[ $cur == -* ]]; then
                        COMPREPLY=($(compgen -W "\(global)" -- "$cur"))
                    else
                        COMPREPLY=($(compgen -W "\(commands)" -- "$cur"))
                    fi
                    return
                fi
                local options="" kinds=()
                case $command in
            \(perCommand)
                esac
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W "\(global) $options" -- "$cur"))
                    return
                fi
                case ${kinds[position]} in
                    layout) COMPREPLY=($(compgen -W "$(_waterfallctl_layouts)" -- "$cur")) ;;
            \(kindWords)
                esac
            }

            complete -F _waterfallctl waterfallctl

            """
    }
}
