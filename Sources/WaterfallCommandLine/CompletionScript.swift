import WaterfallProtocol
import WaterfallWire

/// `waterfallctl completion SHELL`: a script that completes commands, options and their values, written from the
/// same declarations (`Command`, `CommandOption`) as `--help`, so it offers exactly what the parser accepts.
///
/// Layout names come from the daemon when the user presses Tab, through `waterfallctl list --names` (with the
/// `--socket` typed on the line, if any, and a 2-second timeout); a daemon that is not running offers none.
package enum CompletionScript {
    /// The shells a script is written for.
    package enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The script for `shell`.
    package static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    // MARK: Internal

    /// Every option that takes a value, global or of a command: the scripts skip the word after one.
    static var valueOptions: [String] {
        var names: [String] = []
        for option in CommandOption.global + Command.allCases.flatMap(\.options)
        where option.value != nil && !names.contains(option.name) {
            names.append(option.name)
        }
        return names
    }

    /// The options whose value is a path.
    static var fileOptions: [String] {
        valueOptions.filter { name in
            (CommandOption.global + Command.allCases.flatMap(\.options)).contains {
                $0.name == name && $0.completion == .file
            }
        }
    }

    /// What a positional argument of this kind may be, as words; nil for layouts (asked of the daemon) and text.
    static func words(for kind: Command.Argument.Kind) -> [String]? {
        switch kind {
        case .layout, .text: nil
        case .method: Method.allCases.map(\.rawValue)
        case .command: Command.allCases.map(\.rawValue)
        case .shell: Shell.allCases.map(\.rawValue)
        }
    }

    /// The part of the bash and zsh functions (the same text in both shells) that completes an option's value with
    /// `files` or nothing, then finds the command on the line and the position of the word being completed among
    /// its arguments, skipping options and their values; indented for the function's body.
    static func commandScan(words: String, from first: Int, to end: String, files: String) -> String {
        let others = valueOptions.filter { !fileOptions.contains($0) }
        return """
                case $prev in
                    \(fileOptions.joined(separator: "|"))) \(files); return ;;
                    \(others.joined(separator: "|"))) return ;;
                esac
                local command="" word
                local -i i position=0
                for ((i = \(first); i < \(end); i++)); do
                    word=${\(words)[i]}
                    case $word in
                        # bash splits --flag=value at the = (COMP_WORDBREAKS): skip all three words.
                        \(valueOptions.joined(separator: "|"))) ((i++)); [[ ${\(words)[i]} == = ]] && ((i++)) ;;
                        -*) ;;
                        *) if [[ -z $command ]]; then command=$word; else ((position++)); fi ;;
                    esac
                done
            """
    }

    /// `'text'` for any POSIX-like shell (fish included): a quote inside is closed, escaped and reopened.
    static func quoted(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).map { $0.trimmed }.joined(separator: " ")
        return "'" + flat.replacingAll("'", with: #"'\''"#) + "'"
    }

    /// The kinds of a command's positional arguments as words (`layout`, `method`, `text`…), for the scripts.
    static func kinds(_ command: Command) -> String {
        command.arguments.map { "\($0.kind)" }.joined(separator: " ")
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
