# drive.bash PROGRAM WORD... completes the last WORD of the command line
# WORD... as bash does on TAB with PROGRAM's completion script loaded (after
# bash-completion's, whose path is $BASH_COMPLETION_SCRIPT), and prints the
# completions, one a line.
source "$BASH_COMPLETION_SCRIPT"
source <("$1" completion bash)
shift
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
spec=$(complete -p "${COMP_WORDS[0]}")
func=${spec##*-F }
func=${func%% *}
"$func" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
