extension CompletionScript {
    /// The zsh script: a completion function (for a file `_waterfallctl` in `$fpath`, or `source`d) that finds the
    /// command and the argument's position as the bash one does, and offers commands with their summaries.
    static var zsh: String {
        let commands = Command.allCases.map { "        \(quoted("\($0.rawValue):\($0.summary)"))" }
            .joined(separator: "\n")
        let global = CommandOption.global.map { "        \(quoted("\($0.name):\($0.help)"))" }
            .joined(separator: "\n")
        let perCommand = Command.allCases.map { command in
            let options = command.options.map { quoted("\($0.name):\($0.help)") }.joined(separator: " ")
            return "        \(command.rawValue)) options=(\(options)); kinds=(\(kinds(command))) ;;"
        }.joined(separator: "\n")
        let kindWords = [Command.Argument.Kind.method, .command, .shell].map { kind in
            "        \(kind)) compadd -- \((words(for: kind) ?? []).joined(separator: " ")) ;;"
        }.joined(separator: "\n")
        return """
            #compdef waterfallctl
            # zsh completion for waterfallctl, written by `waterfallctl completion zsh`.
            # Install: waterfallctl completion zsh > ~/.zfunc/_waterfallctl (with ~/.zfunc in $fpath, before compinit)

            # The daemon's layouts, from the socket given on the line if any; nothing when no daemon answers.
            _waterfallctl_layouts() {
                local socket="" i
                for ((i = 2; i < CURRENT; i++)); do
                    [[ ${words[i]} == --socket ]] && socket=${words[i + 1]}
                    [[ ${words[i]} == --socket=* ]] && socket=${words[i]#--socket=}
                done
                waterfallctl ${socket:+--socket} ${socket:+$socket} --timeout 2 list --names 2>/dev/null
            }

            _waterfallctl() {
                local cur=${words[CURRENT]} prev=${words[CURRENT - 1]}
            \(commandScan(words: "words", from: 2, to: "CURRENT", files: "_files"))
                local -a global=(
            \(global)
                )
                if [[ -z $command ]]; then
                    if [[ $cur == -* ]]; then
                        _describe option global
                    else
                        local -a commands=(
            \(commands)
                        )
                        _describe command commands
                    fi
                    return
                fi
                local -a options kinds
                case $command in
            \(perCommand)
                esac
                if [[ $cur == -* ]]; then
                    local -a all=($global $options)
                    _describe option all
                    return
                fi
                case ${kinds[position + 1]} in  # zsh counts from 1
                    layout) compadd -- ${(f)"$(_waterfallctl_layouts)"} ;;
            \(kindWords)
                esac
            }

            if [[ $funcstack[1] == _waterfallctl ]]; then
                _waterfallctl "$@"
            else
                compdef _waterfallctl waterfallctl
            fi

            """
    }
}
